import { feedLine, notice } from '@board/kernel';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { InMemoryChecklistRepository } from '../../../../test/support/in-memory/checklist-repository';
import { RecordingUnitOfWork } from '../../../../test/support/recording-unit-of-work';
import { refusalCode } from '../../../../test/support/refusal-code';
import type { ProjectCaller } from '../auth/auth-context';
import { ChecklistService } from './checklist.service';

const PROJECT = '00000000-0000-4000-8000-000000000001';
const TASK = '00000000-0000-4000-8000-0000000000a1';
const GONE_TASK = '00000000-0000-4000-8000-0000000000a2';
const UNKNOWN = '00000000-0000-4000-8000-0000000000ff';
const ANN: ProjectCaller = { userId: 'ann', kind: 'human', name: 'Ann', role: 'member', projectId: PROJECT, clientId: 'tab-1' };

const line = (itemId: string, action: string, text: string) =>
  feedLine({ projectId: PROJECT, taskId: TASK, actorId: 'ann', kind: 'checklist', data: { itemId, action, text } });
const ring = notice({ projectId: PROJECT, scope: 'task', taskId: TASK, clientId: 'tab-1' });

function setUp() {
  const store = new InMemoryChecklistRepository();
  store.liveTasks.add(`${PROJECT}:${TASK}`);
  const uow = new RecordingUnitOfWork();
  const clock = new SteppedClock();
  return { store, uow, clock, service: new ChecklistService(store, uow, clock) };
}

describe('ChecklistService', () => {
  it('adds items last, each with its `added` line and the task’s ring, under the task’s lock only', async () => {
    const { store, uow, clock, service } = setUp();
    const { item: first } = await service.add(ANN, TASK, { text: 'Write' });
    const { item: second } = await service.add(ANN, TASK, { text: 'Test' });
    expect(first.position < second.position).toBe(true);
    expect(uow.events).toEqual([line(first.id, 'added', 'Write'), ring, line(second.id, 'added', 'Test'), ring]);
    expect(uow.writes.map((w) => w.options)).toEqual([undefined, undefined]);
    expect(store.touched).toHaveLength(2);
    expect(store.touched[0]).toEqual({ projectId: PROJECT, taskId: TASK, at: clock.now() });
  });

  it('refuses an item on a task that is not live', async () => {
    const { uow, service } = setUp();
    expect(await refusalCode(service.add(ANN, GONE_TASK, { text: 'Nope' }))).toBe('task.not_found');
    expect(uow.events).toEqual([]);
  });

  it('ticks, unticks and edits with one line each, under the project lock', async () => {
    const { uow, service } = setUp();
    const { item } = await service.add(ANN, TASK, { text: 'Write' });
    uow.clear();
    await service.update(ANN, item.id, { done: true });
    await service.update(ANN, item.id, { done: false });
    // A new text is `edited` even when the tick moves too.
    expect(await service.update(ANN, item.id, { text: 'Rewrite', done: true })).toEqual({ item: expect.objectContaining({ text: 'Rewrite', done: true }) });
    expect(uow.events).toEqual([
      line(item.id, 'checked', 'Write'), ring,
      line(item.id, 'unchecked', 'Write'), ring,
      line(item.id, 'edited', 'Rewrite'), ring,
    ]);
    expect(uow.writes.map((w) => w.options)).toEqual([{ lockProject: PROJECT }, { lockProject: PROJECT }, { lockProject: PROJECT }]);
  });

  it('answers an empty patch without a write, and a patch that changes nothing without an event', async () => {
    const { uow, service } = setUp();
    const { item } = await service.add(ANN, TASK, { text: 'Write' });
    uow.clear();
    expect(await service.update(ANN, item.id, { baseText: 'Write' })).toEqual({ ok: true });
    expect(uow.writes).toEqual([]);
    expect(await service.update(ANN, item.id, { done: false })).toEqual({ item: expect.objectContaining({ done: false }) });
    expect(uow.events).toEqual([]);
  });

  it('refuses a text changed since the base (the tick included) and an item that is gone', async () => {
    const { store, uow, service } = setUp();
    const { item } = await service.add(ANN, TASK, { text: 'Saved' });
    uow.clear();
    expect(await refusalCode(service.update(ANN, item.id, { text: 'Mine', done: true, baseText: 'Older' }))).toBe('checklist.clash');
    expect(store.items.get(item.id)).toMatchObject({ text: 'Saved', done: false });
    expect(await refusalCode(service.update(ANN, UNKNOWN, { done: true }))).toBe('checklist.not_found');
    expect(uow.events).toEqual([]);
  });

  it('deletes with a `deleted` line that names the item by its text, and refuses one that is gone', async () => {
    const { uow, service } = setUp();
    const { item } = await service.add(ANN, TASK, { text: 'Drop me' });
    uow.clear();
    await service.remove(ANN, item.id);
    expect(uow.events).toEqual([line(item.id, 'deleted', 'Drop me'), ring]);
    expect(await refusalCode(service.remove(ANN, item.id))).toBe('checklist.not_found');
  });
});
