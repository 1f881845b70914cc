import { readAnswerSent, readRunReport, Run, RunReport } from '@board/runs';
import { ProjectCaller } from '../auth/auth-context';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { InMemoryRunQuery } from '../../../../test/support/in-memory/run-query';
import { InMemoryRunRepository } from '../../../../test/support/in-memory/run-repository';
import { InMemoryUsageRepository } from '../../../../test/support/in-memory/usage-repository';
import { RecordingUnitOfWork } from '../../../../test/support/recording-unit-of-work';
import { refusalCode } from '../../../../test/support/refusal-code';
import { BudgetService } from './budget.service';
import { ReportRunBody } from './runs.dto';
import { RunsService } from './runs.service';

// The read models' library (typeorm, pg) stays unloaded: the spec hands the service typed fakes.
jest.mock('@board/persistence', () => ({}));

const PROJECT = 'p1';
const MINUTE = 60_000;

function setUp() {
  const clock = new SteppedClock();
  const uow = new RecordingUnitOfWork();
  const runs = new InMemoryRunRepository();
  const usage = new InMemoryUsageRepository();
  const service = new RunsService(runs, new InMemoryRunQuery(runs), uow, clock, usage, new BudgetService(runs, usage, clock));
  const agent = (userId: string): ProjectCaller => ({ userId, kind: 'agent', name: userId, role: 'member', projectId: PROJECT, clientId: null });
  const person: ProjectCaller = { userId: 'ann', kind: 'human', name: 'Ann', role: 'member', projectId: PROJECT, clientId: 'tab-1' };
  /** A run of `agentId` on `taskId`, stored open. */
  const open = (taskId: string, agentId = 'bot', id = `run-${taskId}`) =>
    runs.put(Run.claim({ id, projectId: PROJECT, taskId, agentId, body: { goal: 'Ship' }, now: clock.now() }));
  return { clock, uow, runs, usage, service, agent, person, open };
}

const report = (fields: Record<string, unknown>): ReportRunBody => ({ beat: false, ...readRunReport(fields) }) as ReportRunBody;
const beat = { beat: true } as ReportRunBody;
const board = (taskId: string, clientId: string | null = null) => ({ type: 'notice', change: { projectId: PROJECT, scope: 'board', taskId, clientId } });
const runLine = (taskId: string, runId: string, status: string, actorId: string | null) => ({
  type: 'line',
  line: { projectId: PROJECT, taskId, actorId, kind: 'run', data: { runId, status } },
});

describe('RunsService', () => {
  describe('claim', () => {
    it('opens a run with a board notice', async () => {
      const { service, agent, uow } = setUp();
      const run = await service.claim(agent('bot'), 't1', { goal: 'Fix it', steps: ['a', 'b'] });
      expect(run).toMatchObject({ taskId: 't1', status: 'running', goal: 'Fix it', step: 'a' });
      expect(uow.events).toEqual([board('t1')]);
    });

    it('closes a handed-over run of the task as done, with its line', async () => {
      const { service, agent, uow, open, runs } = setUp();
      const handed = open('t1', 'other');
      handed.report('other', { status: 'handed_over', step: 'to bot' }, new Date());
      runs.put(handed);
      await service.claim(agent('bot'), 't1', {});
      expect(uow.events).toEqual([runLine('t1', handed.id, 'done', 'bot'), board('t1')]);
    });

    it('refuses a second open run, and any claim once the day\'s budget is spent', async () => {
      const { service, agent, uow, open, usage } = setUp();
      open('t1');
      expect(await refusalCode(service.claim(agent('bot'), 't1', {}))).toBe('run.already_open');
      usage.budgets.set(PROJECT, 0);
      expect(await refusalCode(service.claim(agent('bot'), 't2', {}))).toBe('run.budget_spent');
      expect(uow.events).toEqual([]);
    });
  });

  describe('the report gate (before the body)', () => {
    it("passes the run's agent on an open run only", async () => {
      const { service, open, runs } = setUp();
      const run = open('t1');
      // It answers the run as read with its row's version, which the report then writes back to.
      await expect(service.assertReporter(PROJECT, run.id, 'bot')).resolves.toMatchObject({ run: { id: run.id }, version: '1' });
      expect(await refusalCode(service.assertReporter(PROJECT, run.id, 'other'))).toBe('run.other_agent');
      expect(await refusalCode(service.assertReporter('p2', run.id, 'bot'))).toBe('run.not_found');
      run.report('bot', { status: 'done' }, new Date());
      runs.put(run);
      expect(await refusalCode(service.assertReporter(PROJECT, run.id, 'bot'))).toBe('run.closed');
    });
  });

  describe('report', () => {
    it('a heartbeat saves the beat alone and tells nobody', async () => {
      const { service, agent, open, uow, runs } = setUp();
      const run = open('t1');
      expect(await service.report(agent('bot'), run.id, beat)).toMatchObject({ control: null });
      expect(runs.beats).toEqual([run.id]);
      expect(uow.writes.map((w) => [w.landed, w.events])).toEqual([[true, []]]);
    });

    it('a report rings the board; one that closes the run writes its line too', async () => {
      const { service, agent, open, uow } = setUp();
      const run = open('t1');
      await service.report(agent('bot'), run.id, report({ step: 'testing' }));
      expect(uow.events).toEqual([board('t1')]);
      uow.clear();
      const answer = await service.report(agent('bot'), run.id, report({ status: 'done' }));
      expect(answer.run).toMatchObject({ status: 'done' });
      expect(uow.events).toEqual([runLine('t1', run.id, 'done', 'bot'), board('t1')]);
    });

    it('is one statement; one that lost a race to another write reads again and keeps that write', async () => {
      const { service, agent, open, uow, runs } = setUp();
      const run = open('t1');
      const read = runs.findVersioned.bind(runs);
      let raced = false;
      // A person's control word lands between the report's read and its write.
      runs.findVersioned = async (projectId: string, id: string) => {
        const found = await read(projectId, id);
        if (!raced) {
          raced = true;
          const other = (await runs.find(projectId, id))!;
          other.command('pause', { id: 'ann', name: 'Ann' }, new Date());
          await runs.save(other);
        }
        return found;
      };
      const answer = await service.report(agent('bot'), run.id, report({ step: 'testing' }));
      expect(answer).toMatchObject({ run: { step: 'testing', control: 'pause' }, control: 'pause' });
      expect(uow.writes.map((w) => [w.form, w.landed])).toEqual([
        ['statement', false],
        ['statement', true],
      ]);
      expect(uow.events).toEqual([board('t1')]);
    });

    it('takes the lock for a report that books usage, asks a question or closes the run', async () => {
      const { service, agent, open, uow } = setUp();
      const run = open('t1');
      await service.report(agent('bot'), run.id, { beat: false, usage: { inputTokens: 1, outputTokens: 0, costMicros: 5 } } as ReportRunBody);
      await service.report(agent('bot'), run.id, report({ status: 'waiting', question: { text: 'Which?' } }));
      await service.report(agent('bot'), run.id, report({ status: 'done' }));
      expect(uow.writes.map((w) => w.form)).toEqual(['write', 'write', 'write']);
    });

    it('refuses a rule across fields and another agent, writing nothing', async () => {
      const { service, agent, open, uow } = setUp();
      const run = open('t1');
      expect(await refusalCode(service.report(agent('bot'), run.id, report({ status: 'handed_over' })))).toBe('run.hand_over_step');
      expect(await refusalCode(service.report(agent('other'), run.id, report({ step: 'mine' })))).toBe('run.other_agent');
      expect(await refusalCode(service.report(agent('bot'), 'gone', report({})))).toBe('run.not_found');
      expect(uow.events).toEqual([]);
    });

    it("books usage on the report's day, and crossing the budget pauses the project's running runs", async () => {
      const { service, agent, open, uow, usage, runs } = setUp();
      usage.budgets.set(PROJECT, 1000);
      const mine = open('t1');
      const other = open('t2', 'bot-2');
      const usageOf = (costMicros: number): RunReport['usage'] => ({ inputTokens: 0, outputTokens: 0, costMicros });
      await service.report(agent('bot'), mine.id, { beat: false, usage: usageOf(400) } as ReportRunBody);
      expect(usage.booked.map((b) => [b.runId, b.day, b.increase.costMicros])).toEqual([[mine.id, '2026-03-02', 400]]);
      expect(uow.events).toEqual([board('t1')]);
      uow.clear();
      const answer = await service.report(agent('bot'), mine.id, { beat: false, usage: usageOf(1000) } as ReportRunBody);
      expect(answer.control).toBe('pause');
      expect((await runs.find(PROJECT, other.id))?.control).toBe('pause');
      expect(uow.events).toEqual([board('t1'), board('t2')]);
    });
  });

  it('a person answers a waiting run\'s question (the board rings) and controls a run', async () => {
    const { service, person, open, uow, runs } = setUp();
    const run = open('t1');
    run.report('bot', readRunReport({ status: 'waiting', question: { text: 'Which?', options: ['a', 'b'] } }), new Date());
    runs.put(run);
    expect(await refusalCode(service.answer(person, run.id, { answer: readAnswerSent(['c']) }))).toBe('run.answer_choice');
    await service.answer(person, run.id, { answer: readAnswerSent(['a']) });
    expect(uow.events).toEqual([board('t1', 'tab-1')]);
    uow.clear();
    await service.control(person, run.id, { control: 'take_over' });
    expect(uow.events).toEqual([runLine('t1', run.id, 'taken_over', 'ann'), board('t1', 'tab-1')]);
    expect(await refusalCode(service.control(person, run.id, { control: 'stop' }))).toBe('run.over');
  });

  it('expires overdue runs as lost, each with its line and a ring', async () => {
    const { service, open, clock, uow } = setUp();
    const run = open('t1');
    expect(await service.expireOverdue()).toBe(0);
    clock.advance(31 * MINUTE);
    expect(await service.expireOverdue(PROJECT)).toBe(1);
    expect(uow.events).toEqual([runLine('t1', run.id, 'lost', null), board('t1')]);
  });

  it('asks a waiting run to resume when a person answers in a comment', async () => {
    const { service, open, runs } = setUp();
    expect(await service.answeredInComment(PROJECT, 't1', { id: 'ann', name: 'Ann' })).toEqual([]);
    const run = open('t1');
    run.report('bot', readRunReport({ status: 'waiting' }), new Date());
    runs.put(run);
    expect(await service.answeredInComment(PROJECT, 't1', { id: 'ann', name: 'Ann' })).toEqual([board('t1')]);
    expect((await runs.find(PROJECT, run.id))?.control).toBe('resume');
  });

  it('pages past runs, and refuses an unknown cursor (a missing or malformed one is the query DTO\'s)', async () => {
    const { service, person, open, runs, clock } = setUp();
    const run = open('t1', 'bot', '00000000-0000-4000-8000-000000000001');
    run.report('bot', { status: 'done' }, new Date());
    runs.put(run);
    expect(await refusalCode(service.past(person, 't1', '5b1e7c52-4f4e-4a8e-9c36-0d3f3c0f0a11'))).toBe('run.not_found');
    clock.advance(MINUTE);
    const later = open('t1', 'bot', '00000000-0000-4000-8000-000000000002');
    later.report('bot', { status: 'failed' }, new Date());
    runs.put(later);
    expect(await service.past(person, 't1', later.id)).toEqual({ runs: [expect.objectContaining({ id: run.id, status: 'done' })], more: false });
  });
});
