import { notice } from '@board/kernel';
import { InMemoryUsageRepository } from '../../../../test/support/in-memory/usage-repository';
import { InMemoryViewRepository } from '../../../../test/support/in-memory/view-repository';
import { InMemoryWorkQueue } from '../../../../test/support/in-memory/work-queue';
import { IDS, taskWorld, TaskWorld } from '../../../../test/support/in-memory/task-world';
import { refusalCode } from '../../../../test/support/refusal-code';
import type { ProjectCaller } from '../auth/auth-context';
import { BudgetService } from '../runs/budget.service';
import { RunsService } from '../runs/runs.service';
import { TasksService } from '../tasks/tasks.service';
import { QueueService } from './queue.service';

// The read models are in-memory fakes (task-world): the adapters' library is not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));

const VIEW = '00000000-0000-4000-8000-0000000000b1';
const UNKNOWN = '00000000-0000-4000-8000-0000000000ff';
const BOT: ProjectCaller = { userId: 'bot', kind: 'agent', name: 'Bot', role: 'member', projectId: IDS.project, clientId: null };
const board = (taskId: string) => notice({ projectId: IDS.project, scope: 'board', taskId, clientId: null });

function setUp() {
  const w: TaskWorld = taskWorld();
  const usage = new InMemoryUsageRepository();
  const budget = new BudgetService(w.repos.runs, usage, w.clock);
  const runs = new RunsService(w.repos.runs, w.reads.runs, w.uow, w.clock, usage, budget);
  const tasks = new TasksService(w.repos.tasks, w.reads.tasks, w.reads.defs, w.reads.facts, w.uow, w.clock, w.reads.names, w.reads.runs, w.repos.values, w.repos.creates, w.repos.moves);
  const views = new InMemoryViewRepository();
  views.addDefault({ id: VIEW, projectId: IDS.project, name: 'Todo first', kind: 'list', groupById: null });
  const queue = new InMemoryWorkQueue(w.store, w.repos.runs);
  const service = new QueueService(w.uow, queue, views, w.reads.defs, w.reads.facts, budget, runs, tasks, w.clock);
  const create = (title: string) => tasks.create(w.caller, { title, description: '', placement: 'end', values: undefined });
  return { w, usage, views, queue, tasks, service, create };
}

describe('QueueService', () => {
  it('takes the first task no run holds and claims it as a claim would: one write, the board’s ring', async () => {
    const { w, service, create } = setUp();
    const first = await create('First');
    await create('Second');
    w.uow.clear();
    const { run, task } = await service.next(BOT, { goal: 'Ship it', steps: ['a', 'b'] });
    expect(task).toMatchObject({ id: first.id, key: 'WEB-1', run: expect.objectContaining({ agentId: 'bot', goal: 'Ship it' }) });
    expect(run).toMatchObject({ taskId: first.id, agentId: 'bot', status: 'running', goal: 'Ship it', step: 'a', stepsTotal: 2 });
    expect(w.uow.writes).toEqual([expect.objectContaining({ form: 'write', landed: true })]);
    expect(w.uow.events).toEqual([board(first.id)]);
  });

  it('hands the next caller the next task, and nothing once every task is held: no run, no task, nothing told', async () => {
    const { w, service, create } = setUp();
    await create('First');
    const second = await create('Second');
    await service.next(BOT, {});
    w.uow.clear();
    expect((await service.next({ ...BOT, userId: 'bot-2' }, {})).task).toMatchObject({ id: second.id });
    w.uow.clear();
    expect(await service.next({ ...BOT, userId: 'bot-3' }, {})).toEqual({ run: null, task: null });
    expect(w.uow.writes).toEqual([expect.objectContaining({ landed: true, events: [] })]);
  });

  it('takes by the view’s shared rules and order, never the caller’s lens', async () => {
    const { views, queue, service, create } = setUp();
    await create('First');
    const saved = await views.find(IDS.project, VIEW);
    await views.save({
      ...(saved as NonNullable<typeof saved>),
      filters: { rules: [{ propertyId: IDS.status, op: 'is', values: [IDS.todo] }, { propertyId: UNKNOWN, op: 'is', values: [IDS.todo] }] },
      sort: { columnId: IDS.size, direction: 'desc' },
    });
    await views.putLens(IDS.project, VIEW, 'bot', [{ propertyId: IDS.status, op: 'is', values: [IDS.doing] }], { columnId: '_title', direction: 'asc' });
    await service.next(BOT, { viewId: VIEW });
    await service.next(BOT, {});
    expect(queue.requests.map(({ filters, sort }) => ({ filters, sort }))).toEqual([
      { filters: { rules: [{ propertyId: IDS.status, op: 'is', values: [IDS.todo] }] }, sort: { columnId: IDS.size, direction: 'desc' } },
      { filters: null, sort: null },
    ]);
    expect(queue.requests[0]).toMatchObject({ projectId: IDS.project, agentId: 'bot', doneWhen: null });
  });

  it('refuses an unknown view, and any take once the day’s budget is spent; nothing is told', async () => {
    const { w, usage, queue, service, create } = setUp();
    await create('First');
    w.uow.clear();
    expect(await refusalCode(service.next(BOT, { viewId: UNKNOWN }))).toBe('view.not_found');
    usage.budgets.set(IDS.project, 0);
    expect(await refusalCode(service.next(BOT, {}))).toBe('run.budget_spent');
    expect(queue.requests).toEqual([]);
    expect(w.uow.writes.map((x) => x.landed)).toEqual([false, false]);
    expect(w.uow.events).toEqual([]);
  });
});
