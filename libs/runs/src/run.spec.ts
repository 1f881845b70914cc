import { MINUTE } from '@board/kernel';
import { ControlWord, LOG_KEPT, Person, readRunClaim, readRunReport, REPORTED_STATUSES, Run, RunProps, RunStatus, runProgress } from './run';
import { refusal } from '../../../test/support/refusal';

/** A clock the test moves by hand. */
class FakeClock {
  private t = Date.parse('2025-03-01T10:00:00.000Z');
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): Date {
    this.t += ms;
    return this.now();
  }
}

const AGENT = 'agent-1';
const OTHER_AGENT = 'agent-2';
const OLIVE: Person = { id: 'person-1', name: 'Olive' };
const SECOND = 1000;

let clock: FakeClock;
beforeEach(() => {
  clock = new FakeClock();
});

const claim = (body: Record<string, unknown> = {}): Run =>
  Run.claim({ id: 'run-1', projectId: 'project-1', taskId: 'task-1', agentId: AGENT, body: readRunClaim(body), now: clock.now() });

/** A deep copy of the state, so a later change cannot reach it. */
const copy = (run: Run): RunProps => structuredClone(run.snapshot) as RunProps;

/** A run in the given open status, reached through reports. */
function runIn(status: 'running' | 'paused' | 'waiting' | 'handed_over', body: Record<string, unknown> = {}): Run {
  const run = claim({ goal: 'Fix the login', steps: ['read', 'fix', 'test'], ...body });
  if (status !== 'running') run.report(AGENT, readRunReport(status === 'handed_over' ? { status, step: 'Bea has it' } : { status }), clock.now());
  expect(run.status).toBe(status);
  return run;
}

const lastLog = (run: Run) => run.snapshot.log[run.snapshot.log.length - 1];

describe('Run.claim', () => {
  it('defaults: empty goal and step, no plan, running, one log line, all stamps at now', () => {
    const now = clock.now();
    const run = claim();
    expect(run.snapshot).toEqual({
      id: 'run-1',
      projectId: 'project-1',
      taskId: 'task-1',
      agentId: AGENT,
      status: 'running',
      goal: '',
      step: '',
      steps: [],
      stepIndex: null,
      control: null,
      log: [{ at: now.toISOString(), text: 'started: ', by: null }],
      startedAt: now,
      updatedAt: now,
      reportDueAt: null,
      beatAt: now,
      endedAt: null,
      question: null,
      links: [],
      usage: { inputTokens: 0, outputTokens: 0, costMicros: 0, model: null },
    });
    expect(run.isOpen).toBe(true);
  });

  it('takes the first step of the plan as the step, marks it active and the rest waiting, logs started: <goal>', () => {
    const run = claim({ goal: '  Fix the login  ', steps: [' read ', 'fix', 'test'] });
    expect(run.snapshot.goal).toBe('Fix the login');
    expect(run.snapshot.step).toBe('read');
    expect(run.snapshot.steps).toEqual([
      { text: 'read', state: 'active' },
      { text: 'fix', state: 'waiting' },
      { text: 'test', state: 'waiting' },
    ]);
    expect(run.snapshot.stepIndex).toBe(0);
    expect(run.snapshot.log.map((l) => l.text)).toEqual(['started: Fix the login']);
  });

  it('a step sent with the claim wins over the first of the plan', () => {
    const run = claim({ goal: 'g', step: 'warming up', steps: ['read', 'fix'] });
    expect(run.snapshot.step).toBe('warming up');
    expect(run.snapshot.steps[0]).toEqual({ text: 'read', state: 'active' });
  });

  it('accepts a plan of 50 steps and refuses 51', () => {
    expect(claim({ steps: Array.from({ length: 50 }, (_, i) => `s${i}`) }).snapshot.steps).toHaveLength(50);
    expect(refusal(() => claim({ steps: Array.from({ length: 51 }, (_, i) => `s${i}`) })).code).toBe('run.plan_too_long');
  });

  it('refuses a goal or step over 200 characters and a plan step over 200', () => {
    expect(claim({ goal: 'g'.repeat(200), step: 's'.repeat(200) }).snapshot.goal).toHaveLength(200);
    const goal = refusal(() => claim({ goal: 'g'.repeat(201) }));
    expect([goal.code, goal.params]).toEqual(['text.too_long', { field: 'Goal', max: 200 }]);
    const step = refusal(() => claim({ step: 's'.repeat(201) }));
    expect([step.code, step.params]).toEqual(['text.too_long', { field: 'Step', max: 200 }]);
    expect(refusal(() => claim({ steps: ['x'.repeat(201)] })).code).toBe('run.step_too_long');
  });

  it('refuses a plan that is not a list of texts', () => {
    expect(refusal(() => claim({ steps: 'read' })).code).toBe('run.steps_not_texts');
    expect(refusal(() => claim({ steps: ['read', 3] })).code).toBe('run.steps_not_texts');
    expect(refusal(() => claim({ goal: 42 })).code).toBe('text.not_text');
  });
});

describe('Run.report', () => {
  it('stamps updatedAt and beatAt with now; startedAt stays', () => {
    const run = claim({ goal: 'g' });
    const started = clock.now();
    const now = clock.advance(5 * MINUTE);
    expect(run.report(AGENT, readRunReport({ goal: 'new goal' }), now)).toEqual({ closed: false, increase: null });
    expect(run.snapshot.goal).toBe('new goal');
    expect(run.snapshot.updatedAt).toEqual(now);
    expect(run.snapshot.beatAt).toEqual(now);
    expect(run.snapshot.startedAt).toEqual(started);
    expect(run.snapshot.endedAt).toBeNull();
  });

  it('reportFor sets reportDueAt that many minutes ahead; any other report clears it', () => {
    const run = claim();
    const now = clock.advance(MINUTE);
    run.report(AGENT, readRunReport({ reportFor: 10 }), now);
    expect(run.snapshot.reportDueAt).toEqual(new Date(now.getTime() + 10 * MINUTE));
    run.report(AGENT, readRunReport({ reportFor: 60 }), now);
    expect(run.snapshot.reportDueAt).toEqual(new Date(now.getTime() + 60 * MINUTE));
    run.report(AGENT, readRunReport({ reportFor: 0.5 }), now);
    expect(run.snapshot.reportDueAt).toEqual(new Date(now.getTime() + 30 * SECOND));
    run.report(AGENT, readRunReport({ log: 'something else' }), clock.advance(MINUTE));
    expect(run.snapshot.reportDueAt).toBeNull();
  });

  it('refuses reportFor that is not a number of minutes above zero and at most 60', () => {
    const run = claim();
    for (const reportFor of [0, -1, '5', 61, 60.5, true, [5], {}]) {
      const e = refusal(() => run.report(AGENT, readRunReport({ reportFor }), clock.now()));
      expect(e.code).toBe('run.report_for');
    }
  });

  it('refuses a stepIndex too large for its integer column, and takes the largest', () => {
    const run = claim({ steps: ['a', 'b'] });
    for (const stepIndex of [2_147_483_648, 1e15, Number.MAX_SAFE_INTEGER, 1e300, -1, 1.5, '1']) {
      expect([stepIndex, refusal(() => run.report(AGENT, readRunReport({ stepIndex }), clock.now())).code]).toEqual([stepIndex, 'run.step_index']);
    }
    run.report(AGENT, readRunReport({ stepIndex: 2_147_483_647 }), clock.now());
    expect(run.snapshot.stepIndex).toBe(2_147_483_647);
  });

  it('stepIndex marks the steps before it done, it active, after it waiting', () => {
    const run = claim({ steps: ['a', 'b', 'c'] });
    run.report(AGENT, readRunReport({ stepIndex: 1 }), clock.now());
    expect(run.snapshot.steps.map((s) => s.state)).toEqual(['done', 'active', 'waiting']);
    expect(run.snapshot.stepIndex).toBe(1);
    expect(runProgress(run.snapshot)).toMatchObject({ stepsTotal: 3, stepsDone: 1 });
    run.report(AGENT, readRunReport({ stepIndex: 2 }), clock.now());
    expect(run.snapshot.steps.map((s) => s.state)).toEqual(['done', 'done', 'active']);
    run.report(AGENT, readRunReport({ stepIndex: 3 }), clock.now());
    expect(run.snapshot.steps.map((s) => s.state)).toEqual(['done', 'done', 'done']);
    expect(runProgress(run.snapshot)).toMatchObject({ stepsTotal: 3, stepsDone: 3 });
    run.report(AGENT, readRunReport({ stepIndex: 0 }), clock.now());
    expect(run.snapshot.steps.map((s) => s.state)).toEqual(['active', 'waiting', 'waiting']);
  });

  it('a report that does not name the step keeps the plan states', () => {
    const run = claim({ steps: ['a', 'b', 'c'] });
    run.report(AGENT, readRunReport({ stepIndex: 2 }), clock.now());
    run.report(AGENT, readRunReport({ log: 'still going' }), clock.now());
    expect(run.snapshot.steps.map((s) => s.state)).toEqual(['done', 'done', 'active']);
  });

  it('refuses a stepIndex that is not a whole number, zero or more', () => {
    const run = claim({ steps: ['a', 'b'] });
    for (const stepIndex of [-1, 1.5, '1', true, [0]]) {
      expect(refusal(() => run.report(AGENT, readRunReport({ stepIndex }), clock.now())).code).toBe('run.step_index');
    }
  });

  it('steps replace the whole plan; with stepIndex the states follow it', () => {
    const run = claim({ steps: ['a', 'b', 'c'] });
    run.report(AGENT, readRunReport({ stepIndex: 2 }), clock.now());
    run.report(AGENT, readRunReport({ steps: ['x', 'y'] }), clock.now());
    expect(run.snapshot.steps).toEqual([
      { text: 'x', state: 'active' },
      { text: 'y', state: 'waiting' },
    ]);
    run.report(AGENT, readRunReport({ steps: ['p', 'q', 'r', 's'], stepIndex: 2 }), clock.now());
    expect(run.snapshot.steps.map((s) => s.state)).toEqual(['done', 'done', 'active', 'waiting']);
    expect(refusal(() => run.report(AGENT, readRunReport({ steps: Array.from({ length: 51 }, () => 'z') }), clock.now())).code).toBe('run.plan_too_long');
    expect(run.snapshot.steps).toHaveLength(4);
  });

  it('logs the step when log is omitted, the log line when sent, and nothing when neither', () => {
    const run = claim({ goal: 'g' });
    const t1 = clock.advance(SECOND);
    run.report(AGENT, readRunReport({ step: 'reading the code' }), t1);
    expect(lastLog(run)).toEqual({ at: t1.toISOString(), text: 'reading the code', by: null });
    expect(run.snapshot.step).toBe('reading the code');
    run.report(AGENT, readRunReport({ step: 'fixing', log: 'found it in auth.ts' }), clock.now());
    expect(lastLog(run).text).toBe('found it in auth.ts');
    expect(run.snapshot.step).toBe('fixing');
    const before = run.snapshot.log.length;
    run.report(AGENT, readRunReport({ goal: 'other goal' }), clock.now());
    expect(run.snapshot.log).toHaveLength(before);
    expect(runProgress(run.snapshot).lastLog).toBe('found it in auth.ts');
  });

  it('refuses a log line over 400 characters', () => {
    const run = claim();
    expect(run.report(AGENT, readRunReport({ log: 'l'.repeat(400) }), clock.now())).toEqual({ closed: false, increase: null });
    const e = refusal(() => run.report(AGENT, readRunReport({ log: 'l'.repeat(401) }), clock.now()));
    expect([e.code, e.params]).toEqual(['text.too_long', { field: 'Log', max: 400 }]);
  });

  it('moves between the open statuses without ending the run', () => {
    const run = claim({ goal: 'g' });
    const path: Array<[RunStatus, Record<string, unknown>]> = [
      ['paused', {}],
      ['running', {}],
      ['waiting', {}],
      ['running', {}],
      ['handed_over', { step: 'Bea has it' }],
      ['running', {}],
    ];
    for (const [status, extra] of path) {
      expect(run.report(AGENT, readRunReport({ status, ...extra }), clock.advance(SECOND))).toEqual({ closed: false, increase: null });
      expect(run.status).toBe(status);
      expect(run.isOpen).toBe(true);
      expect(run.snapshot.endedAt).toBeNull();
    }
  });

  it.each(['done', 'failed', 'stopped', 'lost'] as const)('%s ends the run and stamps endedAt', (status) => {
    const run = claim();
    const now = clock.advance(3 * MINUTE);
    expect(run.report(AGENT, readRunReport({ status }), now)).toEqual({ closed: true, increase: null });
    expect(run.status).toBe(status);
    expect(run.isOpen).toBe(false);
    expect(run.snapshot.endedAt).toEqual(now);
  });

  it.each(['done', 'failed', 'stopped'] as const)('the owning agent may end its own waiting run with %s', (status) => {
    const run = runIn('waiting');
    expect(run.report(AGENT, readRunReport({ status }), clock.now())).toEqual({ closed: true, increase: null });
    expect(run.status).toBe(status);
  });

  it('lost ends a paused run', () => {
    const run = runIn('paused');
    expect(run.report(AGENT, readRunReport({ status: 'lost' }), clock.now())).toEqual({ closed: true, increase: null });
  });

  it.each(['waiting', 'handed_over'] as const)('refuses lost on a %s run (it waits on purpose) and changes nothing', (status) => {
    const run = runIn(status);
    const before = copy(run);
    const e = refusal(() => run.report(AGENT, readRunReport({ status: 'lost', goal: 'changed', log: 'x' }), clock.advance(MINUTE)));
    expect(e.code).toBe('run.waits');
    expect(run.snapshot).toEqual(before);
  });

  it('handed_over needs a step saying who has the task', () => {
    const run = claim({ steps: ['a'] });
    expect(refusal(() => run.report(AGENT, readRunReport({ status: 'handed_over' }), clock.now())).code).toBe('run.hand_over_step');
    expect(refusal(() => run.report(AGENT, readRunReport({ status: 'handed_over', step: '  ' }), clock.now())).code).toBe('run.hand_over_step');
    expect(run.status).toBe('running');
    run.report(AGENT, readRunReport({ status: 'handed_over', step: 'Bea reviews it' }), clock.now());
    expect(run.status).toBe('handed_over');
    expect(run.snapshot.step).toBe('Bea reviews it');
    expect(run.isOpen).toBe(true);
  });

  it('refuses taken_over from an agent (only a person takes a task over)', () => {
    const run = claim();
    expect(refusal(() => run.report(AGENT, readRunReport({ status: 'taken_over' }), clock.now())).code).toBe('run.take_over_by_person');
    expect(run.status).toBe('running');
  });

  it('refuses an unknown status', () => {
    const run = claim();
    for (const status of ['finished', 'RUNNING', 3]) expect(refusal(() => run.report(AGENT, readRunReport({ status }), clock.now())).code).toBe('run.status_invalid');
  });

  it('refuses another agent, before it looks at anything else', () => {
    const run = claim();
    const before = copy(run);
    expect(refusal(() => run.report(OTHER_AGENT, readRunReport({ goal: 'mine now' }), clock.now())).code).toBe('run.other_agent');
    expect(refusal(() => run.report(OTHER_AGENT, { stepIndex: 2 }, clock.now())).code).toBe('run.other_agent');
    expect(refusal(() => run.beat(OTHER_AGENT, clock.advance(MINUTE))).code).toBe('run.other_agent');
    expect(run.snapshot).toEqual(before);
    run.report(AGENT, readRunReport({ status: 'done' }), clock.now());
    expect(refusal(() => run.report(OTHER_AGENT, readRunReport({}), clock.now())).code).toBe('run.other_agent');
  });

  it('refuses a report and a beat on a closed run', () => {
    const run = claim();
    run.report(AGENT, readRunReport({ status: 'done' }), clock.now());
    const before = copy(run);
    expect(refusal(() => run.report(AGENT, readRunReport({ log: 'late' }), clock.advance(MINUTE))).code).toBe('run.closed');
    expect(refusal(() => run.report(AGENT, readRunReport({ status: 'running' }), clock.now())).code).toBe('run.closed');
    expect(refusal(() => run.beat(AGENT, clock.now())).code).toBe('run.closed');
    expect(run.snapshot).toEqual(before);
  });

  it('a refused report writes nothing, even the fields that were fine', () => {
    const run = claim({ steps: ['a', 'b'] });
    const before = copy(run);
    const later = clock.advance(MINUTE);
    for (const body of [
      { goal: 'new', stepIndex: -1 },
      { step: 'new', log: 'new', reportFor: 0 },
      { goal: 'new', status: 'taken_over' },
      { steps: ['x'], status: 'handed_over' },
    ]) {
      refusal(() => run.report(AGENT, readRunReport(body), later));
      expect(run.snapshot).toEqual(before);
    }
  });
});

describe('Run.beat', () => {
  it('moves only beatAt and answers the pending control word', () => {
    const run = claim({ steps: ['a'] });
    run.report(AGENT, readRunReport({ reportFor: 10 }), clock.now());
    const before = copy(run);
    const now = clock.advance(2 * MINUTE);
    expect(run.beat(AGENT, now)).toBeNull();
    expect(run.snapshot).toEqual({ ...before, beatAt: now });

    run.command('pause', OLIVE, clock.now());
    expect(run.beat(AGENT, clock.advance(SECOND))).toBe('pause');
    // a beat does not answer the word: it stays until a status does
    expect(run.control).toBe('pause');
  });
});

describe('control words answered by a status', () => {
  // decisions › Smaller points: paused answers pause, running answers resume,
  // stopped and every other closing status answer stop and pause; waiting and handed_over answer nothing.
  const ANSWERS: Record<(typeof REPORTED_STATUSES)[number], ControlWord[]> = {
    running: ['resume'],
    paused: ['pause'],
    waiting: [],
    handed_over: [],
    done: ['stop', 'pause'],
    failed: ['stop', 'pause'],
    stopped: ['stop', 'pause'],
    lost: ['stop', 'pause'],
  };
  const cases: Array<[string, ControlWord, boolean]> = [];
  for (const status of REPORTED_STATUSES) {
    for (const word of ['pause', 'resume', 'stop'] as ControlWord[]) cases.push([status, word, ANSWERS[status].includes(word)]);
  }

  it.each(cases)('status %s with %s pending: cleared = %s', (status, word, cleared) => {
    const run = claim({ steps: ['a'] });
    run.command(word, OLIVE, clock.now());
    expect(run.control).toBe(word);
    const body: Record<string, unknown> = { status };
    if (status === 'handed_over') body.step = 'Bea has it';
    run.report(AGENT, readRunReport(body), clock.advance(SECOND));
    expect(run.status).toBe(status);
    expect(run.control).toBe(cleared ? null : word);
  });

  it('a report without a status answers nothing', () => {
    const run = claim();
    run.command('stop', OLIVE, clock.now());
    run.report(AGENT, readRunReport({ log: 'heard you' }), clock.now());
    expect(run.control).toBe('stop');
  });

  it('expiry (lost) answers stop and pause but not resume', () => {
    for (const [word, left] of [
      ['pause', null],
      ['stop', null],
      ['resume', 'resume'],
    ] as const) {
      const c = new FakeClock();
      const run = Run.claim({ id: 'r', projectId: 'p', taskId: 't', agentId: AGENT, body: {}, now: c.now() });
      run.command(word, OLIVE, c.now());
      expect(run.expire(c.advance(31 * MINUTE))).toBe(true);
      expect(run.control).toBe(left);
    }
  });
});

describe('Run.command (a person)', () => {
  it.each(['pause', 'resume', 'stop'] as const)('%s sets control, keeps the status, logs who asked', (word) => {
    const run = runIn('running');
    const before = copy(run);
    const now = clock.advance(MINUTE);
    expect(run.command(word, OLIVE, now)).toEqual({ closed: false });
    expect(run.control).toBe(word);
    expect(run.status).toBe('running');
    expect(run.isOpen).toBe(true);
    expect(lastLog(run)).toEqual({ at: now.toISOString(), text: `Olive asked to ${word}.`, by: { id: 'person-1', name: 'Olive' } });
    // a person's request is not a report: the lease is untouched
    expect(run.snapshot.updatedAt).toEqual(before.updatedAt);
    expect(run.snapshot.beatAt).toEqual(before.beatAt);
  });

  it('a later word replaces the pending one', () => {
    const run = claim();
    run.command('pause', OLIVE, clock.now());
    run.command('stop', { id: 'person-2', name: 'Milo' }, clock.now());
    expect(run.control).toBe('stop');
    expect(lastLog(run).text).toBe('Milo asked to stop.');
  });

  it.each(['running', 'paused', 'waiting', 'handed_over'] as const)('take_over ends a %s run, clears control and logs it', (status) => {
    const run = runIn(status);
    // resume is a word no closing status answers: take_over must clear it itself
    run.command('resume', OLIVE, clock.now());
    const now = clock.advance(MINUTE);
    expect(run.command('take_over', OLIVE, now)).toEqual({ closed: true });
    expect(run.status).toBe('taken_over');
    expect(run.snapshot.endedAt).toEqual(now);
    expect(run.control).toBeNull();
    expect(run.isOpen).toBe(false);
    expect(lastLog(run)).toEqual({ at: now.toISOString(), text: 'Olive took the task over.', by: { id: 'person-1', name: 'Olive' } });
  });

  it('refuses every word on a closed run (run.over) and changes nothing', () => {
    for (const close of [(r: Run) => r.report(AGENT, { status: 'done' }, clock.now()), (r: Run) => r.command('take_over', OLIVE, clock.now())]) {
      const run = claim();
      close(run);
      const before = copy(run);
      for (const word of ['pause', 'resume', 'stop', 'take_over']) expect(refusal(() => run.command(word, OLIVE, clock.now())).code).toBe('run.over');
      expect(run.snapshot).toEqual(before);
    }
  });

  it('refuses a word that is not pause, stop, resume or take_over', () => {
    const run = claim();
    for (const word of ['halt', '', 'PAUSE', 'taken_over', null, undefined, 42, ['pause']]) {
      expect(refusal(() => run.command(word, OLIVE, clock.now())).code).toBe('run.control_invalid');
    }
    expect(run.control).toBeNull();
    expect(run.snapshot.log).toHaveLength(1);
  });
});

describe('lease', () => {
  it('a running run is overdue after 30 minutes without a report, not at 29:59', () => {
    const run = claim();
    expect(run.isOverdue(clock.advance(29 * MINUTE + 59 * SECOND))).toBe(false);
    expect(run.isOverdue(clock.advance(2 * SECOND))).toBe(true);
  });

  it('a paused run is overdue the same way', () => {
    const run = runIn('paused');
    expect(run.isOverdue(clock.advance(29 * MINUTE))).toBe(false);
    expect(run.isOverdue(clock.advance(2 * MINUTE))).toBe(true);
  });

  it('a report renews the lease; a beat and a person’s control word do not', () => {
    const run = claim();
    clock.advance(20 * MINUTE);
    run.report(AGENT, readRunReport({ log: 'still here' }), clock.now());
    expect(run.isOverdue(clock.advance(29 * MINUTE))).toBe(false);
    expect(run.isOverdue(clock.advance(2 * MINUTE))).toBe(true);

    const other = claim();
    const start = clock.now();
    other.beat(AGENT, clock.advance(25 * MINUTE));
    other.command('pause', OLIVE, clock.now());
    expect(other.isOverdue(new Date(start.getTime() + 30 * MINUTE + SECOND))).toBe(true);
  });

  it('with reportDueAt the lease reads it: overdue past it even before 30 minutes', () => {
    const run = claim();
    run.report(AGENT, readRunReport({ reportFor: 5 }), clock.now());
    expect(run.isOverdue(clock.advance(4 * MINUTE + 59 * SECOND))).toBe(false);
    expect(run.isOverdue(clock.advance(2 * SECOND))).toBe(true);
  });

  it('with reportDueAt beyond 30 minutes the run is not overdue at 31 minutes', () => {
    const run = claim();
    run.report(AGENT, readRunReport({ reportFor: 60 }), clock.now());
    expect(run.isOverdue(clock.advance(31 * MINUTE))).toBe(false);
    expect(run.isOverdue(clock.advance(29 * MINUTE + SECOND))).toBe(true);
  });

  it.each(['waiting', 'handed_over'] as const)('a %s run is never overdue and expire leaves it open', (status) => {
    const run = runIn(status, {});
    run.report(AGENT, readRunReport(status === 'handed_over' ? { status, step: 'Bea', reportFor: 1 } : { status, reportFor: 1 }), clock.now());
    const later = clock.advance(40 * 24 * 60 * MINUTE);
    expect(run.isOverdue(later)).toBe(false);
    const before = copy(run);
    expect(run.expire(later)).toBe(false);
    expect(run.snapshot).toEqual(before);
    expect(run.status).toBe(status);
  });

  it('a closed run is never overdue', () => {
    const run = claim();
    run.report(AGENT, readRunReport({ status: 'done' }), clock.now());
    expect(run.isOverdue(clock.advance(90 * MINUTE))).toBe(false);
    expect(run.expire(clock.now())).toBe(false);
    expect(run.status).toBe('done');
  });

  it('expire closes an overdue run as lost and stamps endedAt; before the lease it does nothing', () => {
    const run = claim();
    const before = copy(run);
    expect(run.expire(clock.advance(10 * MINUTE))).toBe(false);
    expect(run.snapshot).toEqual(before);
    const now = clock.advance(21 * MINUTE);
    expect(run.expire(now)).toBe(true);
    expect(run.status).toBe('lost');
    expect(run.snapshot.endedAt).toEqual(now);
    expect(run.isOpen).toBe(false);
    expect(run.snapshot.updatedAt).toEqual(before.updatedAt);
  });
});

describe('Run.answeredInComment', () => {
  it('on a waiting run asks the agent to resume and logs who answered', () => {
    const run = runIn('waiting');
    const now = clock.advance(MINUTE);
    expect(run.answeredInComment(OLIVE, now)).toBe(true);
    expect(run.control).toBe('resume');
    expect(run.status).toBe('waiting');
    expect(lastLog(run)).toEqual({ at: now.toISOString(), text: 'Olive answered in a comment.', by: { id: 'person-1', name: 'Olive' } });
    // the agent's running report answers the resume
    run.report(AGENT, readRunReport({ status: 'running' }), clock.now());
    expect(run.control).toBeNull();
  });

  it('keeps another word that is already pending', () => {
    const run = runIn('waiting');
    run.command('stop', OLIVE, clock.now());
    expect(run.answeredInComment({ id: 'person-2', name: 'Milo' }, clock.now())).toBe(true);
    expect(run.control).toBe('stop');
    expect(lastLog(run).text).toBe('Milo answered in a comment.');
  });

  it.each(['running', 'paused', 'handed_over'] as const)('does nothing on a %s run', (status) => {
    const run = runIn(status);
    const before = copy(run);
    expect(run.answeredInComment(OLIVE, clock.advance(MINUTE))).toBe(false);
    expect(run.snapshot).toEqual(before);
  });

  it('does nothing on a closed run', () => {
    const run = runIn('waiting');
    run.report(AGENT, readRunReport({ status: 'done' }), clock.now());
    const before = copy(run);
    expect(run.answeredInComment(OLIVE, clock.now())).toBe(false);
    expect(run.snapshot).toEqual(before);
  });
});

describe('log cap and progress', () => {
  it('keeps at most LOG_KEPT lines, the newest, oldest first', () => {
    expect(LOG_KEPT).toBeGreaterThanOrEqual(40);
    const run = claim({ goal: 'g' });
    const reports = LOG_KEPT + 100;
    for (let i = 1; i <= reports; i++) run.report(AGENT, readRunReport({ log: `line ${i}` }), clock.advance(SECOND));
    const texts = run.snapshot.log.map((l) => l.text);
    expect(texts).toHaveLength(LOG_KEPT);
    expect(texts[0]).toBe(`line ${reports - LOG_KEPT + 1}`);
    expect(texts[texts.length - 1]).toBe(`line ${reports}`);
    expect(runProgress(run.snapshot).lastLog).toBe(`line ${reports}`);
  });

  it('runProgress counts the plan and reads the newest line; an empty log reads empty', () => {
    expect(runProgress({ steps: [], log: [] })).toEqual({ stepsTotal: 0, stepsDone: 0, lastLog: '' });
    expect(
      runProgress({
        steps: [
          { text: 'a', state: 'done' },
          { text: 'b', state: 'done' },
          { text: 'c', state: 'active' },
        ],
        log: [
          { at: 'x', text: 'first', by: null },
          { at: 'y', text: 'second', by: null },
        ],
      }),
    ).toEqual({ stepsTotal: 3, stepsDone: 2, lastLog: 'second' });
  });

  it('restore copies the plan and log, so the stored props are not changed through the run', () => {
    const props = copy(claim({ steps: ['a'] }));
    const run = Run.restore(props);
    run.report(AGENT, readRunReport({ log: 'more', steps: ['x', 'y'] }), clock.now());
    expect(props.log).toHaveLength(1);
    expect(props.steps).toEqual([{ text: 'a', state: 'active' }]);
  });
});
