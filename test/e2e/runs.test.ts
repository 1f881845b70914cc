import { randomUUID } from 'node:crypto';
import { expectStatus } from '../support/fixtures';
import { readTask, taskFeed } from '../support/builders-b';
import { Agent, anAgent, aTeam } from '../support/builders';
import { Client, createAgent, createProject, Person, startTestApp, TestApp } from '../support/test-app';

const ONLY_AGENT = 'Only an agent can do this.';
const ONLY_PERSON = 'Only a person can do this.';
const PLAN_TOO_LONG = 'A plan has at most 50 steps.';
const ALREADY_OPEN = 'Another run is already open on this task.';
const STEP_INDEX = 'stepIndex must be a whole number, zero or more.';
const REPORT_FOR = 'reportFor is a number of minutes above zero.';
const HAND_OVER = 'A hand-over says who has the task now. Send it as step.';
const TAKE_OVER_BY_PERSON = 'Only a person takes a task over.';
const OTHER_AGENT = 'That run belongs to another agent.';
const CLOSED = 'That run is closed.';
const WAITS = 'That run waits on purpose, so a lost report cannot end it.';
const BEFORE_MISSING = 'Name the run to read before, as ?before=.';
const NOT_RUN_ID = 'That is not a run id.';
const RUN_NOT_FOUND = 'Run not found.';
const CONTROL_INVALID = 'Control must be one of: pause, stop, resume, take_over.';
const OVER = 'That run is over.';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RUN_KEYS = [
  'agent', 'beatAt', 'control', 'endedAt', 'goal', 'id', 'lastLog', 'links', 'log', 'question', 'reportDueAt', 'startedAt', 'status', 'step', 'steps',
  'stepsDone', 'stepsTotal', 'taskId', 'updatedAt', 'usage',
];
const BOARD_RUN_KEYS = RUN_KEYS.filter((k) => k !== 'steps' && k !== 'log');
const PAST_KEYS = ['agent', 'endedAt', 'goal', 'id', 'links', 'startedAt', 'status', 'step', 'usage'];

describe('run routes', () => {
  let t: TestApp;
  let owner: Person;
  let member: Person;
  let outsider: Person;
  let projectId: string;
  let robo: Agent;
  let bot: Agent;

  const agentView = (a: Agent) => ({ id: a.agent.id, name: a.agent.name, color: a.agent.color, emoji: a.agent.emoji });

  async function newTask(title = 'A task', pid = projectId, as: Client = owner.client): Promise<string> {
    const res = await as.post(`/projects/${pid}/tasks`, { title });
    expect(res.status).toBe(201);
    return res.body.task.id;
  }

  async function claimed(agent: Agent, taskId: string, body: Record<string, unknown> = { goal: 'Fix it', steps: ['read', 'fix', 'test'] }) {
    const res = await agent.client.post(`/tasks/${taskId}/run`, body);
    expect(res.status).toBe(201);
    return res.body.run;
  }

  async function report(agent: Agent, runId: string, body: Record<string, unknown>, status = 200) {
    const res = await agent.client.patch(`/runs/${runId}`, body);
    expect({ status: res.status, body: res.body }).toEqual({ status, body: expect.anything() });
    return res.body;
  }

  /** A run as `GET /runs/:runId` answers it (a closed run too). */
  const row = async (runId: string) => (await expectStatus(owner.client.get(`/runs/${runId}`), 200)).run;
  /** Storage itself: every column of the run, for a write that must leave all but one alone. */
  const storedRun = async (runId: string) => (await t.sql.query('SELECT * FROM runs WHERE id = $1', [runId])).rows[0];
  const runLines = async (taskId: string) => (await taskFeed(owner.client, taskId, 'run')).map(({ data, actorId }) => ({ data, actorId }));
  // Storage itself: a second open run of a task would show in no read (the task read shows one).
  const openCount = async (taskId: string): Promise<number> =>
    (await t.sql.query('SELECT count(*)::int AS n FROM runs WHERE task_id = $1 AND ended_at IS NULL', [taskId])).rows[0].n;
  const boardRuns = async (pid = projectId, as: Client = owner.client) => {
    const res = await as.get(`/projects/${pid}/board`);
    expect(res.status).toBe(200);
    return res.body.runs;
  };
  const readRun = async (runId: string, as: Client = owner.client) => {
    const res = await as.get(`/runs/${runId}`);
    expect(res.status).toBe(200);
    return res.body.run;
  };

  beforeAll(async () => {
    t = await startTestApp();
    ({ owner, member, outsider, project: { id: projectId }, agent: robo } = await aTeam(t, { name: 'Runs', key: 'RUN' }));
    bot = await anAgent(owner.client, projectId, 'Bot');
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('POST /api/tasks/:taskId/run (claim)', () => {
    it('is agent only: a person gets 403 and nothing is opened', async () => {
      const taskId = await newTask();
      for (const person of [owner, member]) {
        const res = await person.client.post(`/tasks/${taskId}/run`, { goal: 'mine' });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: ONLY_AGENT });
      }
      const refused = await readTask(owner.client, taskId);
      expect({ run: refused.run, pastRuns: refused.pastRuns }).toEqual({ run: null, pastRuns: [] });
      expect(await outsider.client.post(`/tasks/${taskId}/run`, {}).then((r) => r.status)).toBe(404);
    });

    it('answers 201 { run } with the plan, the log and the card fields', async () => {
      const taskId = await newTask();
      const res = await robo.client.post(`/tasks/${taskId}/run`, { goal: 'Fix the login', steps: ['read', 'fix', 'test'] });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['run']);
      const run = res.body.run;
      expect(Object.keys(run).sort()).toEqual(RUN_KEYS);
      expect(run).toMatchObject({
        taskId,
        status: 'running',
        goal: 'Fix the login',
        step: 'read',
        control: null,
        reportDueAt: null,
        endedAt: null,
        agent: agentView(robo),
        stepsTotal: 3,
        stepsDone: 0,
        lastLog: 'started: Fix the login',
        steps: [
          { text: 'read', state: 'active' },
          { text: 'fix', state: 'waiting' },
          { text: 'test', state: 'waiting' },
        ],
      });
      expect(run.id).toMatch(UUID);
      expect(run.log).toEqual([{ at: expect.stringMatching(ISO), text: 'started: Fix the login', by: null }]);
      expect(run.startedAt).toMatch(ISO);
      expect(run.updatedAt).toBe(run.startedAt);
      expect(run.beatAt).toBe(run.startedAt);
      const stored = await row(run.id);
      expect(stored).toMatchObject({ taskId, agent: { id: robo.agent.id }, status: 'running', endedAt: null });
      expect((await boardRuns()).map((r) => r.id)).toContain(run.id);
    });

    it('defaults: empty goal and step, no plan, log starts with "started: "', async () => {
      const run = await claimed(robo, await newTask(), {});
      expect(run).toMatchObject({ goal: '', step: '', steps: [], stepsTotal: 0, stepsDone: 0, lastLog: 'started: ' });
      expect(run.log!.map((l) => l.text)).toEqual(['started: ']);
    });

    it('refuses more than 50 steps with 400 and opens nothing; 50 are fine', async () => {
      const taskId = await newTask();
      const res = await robo.client.post(`/tasks/${taskId}/run`, { steps: Array.from({ length: 51 }, (_, i) => `step ${i}`) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: PLAN_TOO_LONG });
      expect(await openCount(taskId)).toBe(0);
      const run = await claimed(robo, taskId, { steps: Array.from({ length: 50 }, (_, i) => `step ${i}`) });
      expect(run.steps).toHaveLength(50);
      expect(run.stepsTotal).toBe(50);
    });

    it('refuses a goal over 200 characters with the string message', async () => {
      const res = await robo.client.post(`/tasks/${await newTask()}/run`, { goal: 'g'.repeat(201) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Goal is too long (max 200 characters).' });
    });

    it('a second claim on the task gets 409, from the same agent or another', async () => {
      const taskId = await newTask();
      const first = await claimed(robo, taskId);
      for (const agent of [robo, bot]) {
        const res = await agent.client.post(`/tasks/${taskId}/run`, { goal: 'again' });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ error: ALREADY_OPEN });
      }
      expect(await openCount(taskId)).toBe(1);
      expect((await row(first.id)).endedAt).toBeNull();
    });

    it('a closed run does not stop the next claim', async () => {
      const taskId = await newTask();
      const first = await claimed(robo, taskId);
      await report(robo, first.id, { status: 'done' });
      const second = await claimed(bot, taskId);
      expect(second.id).not.toBe(first.id);
    });

    it('a handed_over run is closed as done by the next claim, with a run feed line', async () => {
      const taskId = await newTask();
      const first = await claimed(robo, taskId);
      await report(robo, first.id, { status: 'handed_over', step: 'Bot reviews it' });
      expect(await runLines(taskId)).toEqual([]);

      const res = await bot.client.post(`/tasks/${taskId}/run`, { goal: 'Review' });
      expect(res.status).toBe(201);
      const old = await row(first.id);
      expect(old.status).toBe('done');
      expect(old.endedAt).toMatch(ISO);
      expect(await openCount(taskId)).toBe(1);
      expect((await row(res.body.run.id)).endedAt).toBeNull();
      expect(await runLines(taskId)).toEqual([{ data: { runId: first.id, status: 'done' }, actorId: bot.agent.id }]);
      const board = await boardRuns();
      expect(board.filter((r) => r.taskId === taskId).map((r) => r.id)).toEqual([res.body.run.id]);
    });
  });

  describe('simultaneous claims', () => {
    let agents: Agent[];

    beforeAll(async () => {
      agents = [];
      for (let i = 0; i < 25; i++) agents.push(await createAgent(owner.client, projectId, `Racer ${i}`));
    });

    it('25 agents claim one task at once: one 201, 24 409, one open run (5 tasks)', async () => {
      for (let round = 0; round < 5; round++) {
        const taskId = await newTask(`Race ${round}`);
        const answers = await Promise.all(agents.map((a) => a.client.post(`/tasks/${taskId}/run`, { goal: `race ${round}` })));
        const statuses = answers.map((a) => a.status).sort();
        expect(statuses).toEqual([201, ...Array(24).fill(409)]);
        for (const a of answers.filter((x) => x.status === 409)) expect(a.body).toEqual({ error: ALREADY_OPEN });
        expect(await openCount(taskId)).toBe(1);
        // A race: a second run, open or closed, would only show in the table.
        expect((await t.sql.query('SELECT count(*)::int AS n FROM runs WHERE task_id = $1', [taskId])).rows[0].n).toBe(1);
        const winner = answers.find((a) => a.status === 201)!.body.run;
        expect((await row(winner.id)).endedAt).toBeNull();
      }
    });

    it('one agent sending 25 claims at once gets one run', async () => {
      const taskId = await newTask('Race alone');
      const answers = await Promise.all(Array.from({ length: 25 }, () => robo.client.post(`/tasks/${taskId}/run`, {})));
      expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(24).fill(409)]);
      expect(await openCount(taskId)).toBe(1);
    });

    it('25 claims at once on a handed-over task: one wins, the hand-over is closed once', async () => {
      const taskId = await newTask('Race hand-over');
      const first = await claimed(robo, taskId);
      await report(robo, first.id, { status: 'handed_over', step: 'whoever is fastest' });
      const answers = await Promise.all(agents.map((a) => a.client.post(`/tasks/${taskId}/run`, {})));
      expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(24).fill(409)]);
      expect(await openCount(taskId)).toBe(1);
      expect((await row(first.id)).status).toBe('done');
      expect((await runLines(taskId)).map((l) => l.data)).toEqual([{ runId: first.id, status: 'done' }]);
    });
  });

  describe('PATCH /api/runs/:runId (report, beat, close)', () => {
    it('refuses stepIndex that is not a whole number, zero or more', async () => {
      const run = await claimed(robo, await newTask());
      for (const stepIndex of [-1, 1.5, '1']) {
        const res = await robo.client.patch(`/runs/${run.id}`, { stepIndex });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: STEP_INDEX });
      }
    });

    it('refuses reportFor of 0, -1, "5" and 61', async () => {
      const run = await claimed(robo, await newTask());
      for (const reportFor of [0, -1, '5', 61]) {
        const res = await robo.client.patch(`/runs/${run.id}`, { reportFor });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: REPORT_FOR });
      }
      expect((await row(run.id)).reportDueAt).toBeNull();
    });

    it('refuses handed_over without a step and taken_over from an agent', async () => {
      const run = await claimed(robo, await newTask());
      let res = await robo.client.patch(`/runs/${run.id}`, { status: 'handed_over' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: HAND_OVER });
      res = await robo.client.patch(`/runs/${run.id}`, { status: 'taken_over' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: TAKE_OVER_BY_PERSON });
      expect((await row(run.id)).status).toBe('running');
    });

    it('refuses another agent with 403 and a person with 403', async () => {
      const run = await claimed(robo, await newTask());
      let res = await bot.client.patch(`/runs/${run.id}`, { log: 'mine' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: OTHER_AGENT });
      res = await bot.client.patch(`/runs/${run.id}`, { beat: true });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: OTHER_AGENT });
      res = await owner.client.patch(`/runs/${run.id}`, { log: 'mine' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: ONLY_AGENT });
      expect((await row(run.id)).log).toHaveLength(1);
    });

    it('refuses a bad run id and an unknown run', async () => {
      let res = await robo.client.patch('/runs/not-a-uuid', { log: 'x' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: NOT_RUN_ID });
      res = await robo.client.patch(`/runs/${randomUUID()}`, { log: 'x' });
      expect(res.status).toBe(404);
    });

    it('refuses a report and a beat on a closed run with 409', async () => {
      const run = await claimed(robo, await newTask());
      await report(robo, run.id, { status: 'failed' });
      for (const body of [{ log: 'late' }, { beat: true }, { status: 'running' }]) {
        const res = await robo.client.patch(`/runs/${run.id}`, body);
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ error: CLOSED });
      }
      expect((await row(run.id)).status).toBe('failed');
    });

    it.each(['waiting', 'handed_over'])('refuses lost on a %s run with 409 and leaves it open', async (status) => {
      const taskId = await newTask();
      const run = await claimed(robo, taskId);
      await report(robo, run.id, status === 'handed_over' ? { status, step: 'Bea has it' } : { status });
      const res = await robo.client.patch(`/runs/${run.id}`, { status: 'lost' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: WAITS });
      expect(await row(run.id)).toMatchObject({ status, endedAt: null });
      expect(await runLines(taskId)).toEqual([]);
    });

    it('answers { run, control } and stamps updated_at and beat_at', async () => {
      const run = await claimed(robo, await newTask());
      // A forced clock: the run's last report and beat are moved 10 minutes back.
      await t.sql.query(`UPDATE runs SET updated_at = now() - interval '10 minutes', beat_at = now() - interval '10 minutes' WHERE id = $1`, [run.id]);
      const before = await row(run.id);
      const res = await robo.client.patch(`/runs/${run.id}`, { step: 'fix', stepIndex: 1 });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['control', 'run']);
      expect(res.body.control).toBeNull();
      expect(Object.keys(res.body.run).sort()).toEqual(RUN_KEYS);
      expect(res.body.run).toMatchObject({
        step: 'fix',
        stepsDone: 1,
        lastLog: 'fix',
        steps: [
          { text: 'read', state: 'done' },
          { text: 'fix', state: 'active' },
          { text: 'test', state: 'waiting' },
        ],
      });
      const after = await row(run.id);
      expect(new Date(after.updatedAt).getTime()).toBeGreaterThan(new Date(before.updatedAt).getTime() + 5 * 60_000);
      expect(after.beatAt).toBe(after.updatedAt);
      expect(res.body.run.updatedAt).toBe(after.updatedAt);
    });

    it('a beat writes only beat_at and answers { run, control }', async () => {
      const run = await claimed(robo, await newTask());
      await report(robo, run.id, { reportFor: 20 });
      // A forced clock: the run's last report and beat are moved 10 minutes back.
      await t.sql.query(`UPDATE runs SET updated_at = now() - interval '10 minutes', beat_at = now() - interval '10 minutes' WHERE id = $1`, [run.id]);
      const before = await storedRun(run.id);
      const res = await robo.client.patch(`/runs/${run.id}`, { beat: true, goal: 'ignored', log: 'ignored', status: 'done', stepIndex: -1 });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['control', 'run']);
      expect(res.body.control).toBeNull();
      const after = await storedRun(run.id);
      expect(after.beat_at.getTime()).toBeGreaterThan(before.beat_at.getTime() + 5 * 60_000);
      const { beat_at: _a, ...restAfter } = after;
      const { beat_at: _b, ...restBefore } = before;
      expect(restAfter).toEqual(restBefore);
      expect(after.updated_at.getTime()).toBe(before.updated_at.getTime());
      expect(after.report_due_at).toEqual(before.report_due_at);
      expect(res.body.run).toMatchObject({ status: 'running', goal: 'Fix it', beatAt: after.beat_at.toISOString(), updatedAt: before.updated_at.toISOString() });
    });

    it('reportFor writes report_due_at; any other report clears it; a beat keeps it', async () => {
      const run = await claimed(robo, await newTask());
      const sent = Date.now();
      const res = await robo.client.patch(`/runs/${run.id}`, { reportFor: 10 });
      expect(res.status).toBe(200);
      const due = new Date(res.body.run.reportDueAt!).getTime();
      expect(due).toBeGreaterThanOrEqual(sent + 10 * 60_000 - 2000);
      expect(due).toBeLessThanOrEqual(Date.now() + 10 * 60_000 + 2000);
      expect(new Date((await row(run.id)).reportDueAt ?? NaN).getTime()).toBe(due);
      await report(robo, run.id, { beat: true });
      expect(new Date((await row(run.id)).reportDueAt ?? NaN).getTime()).toBe(due);
      const next = await report(robo, run.id, { log: 'on it' });
      expect(next.run.reportDueAt).toBeNull();
      expect((await row(run.id)).reportDueAt).toBeNull();
    });

    it('logs the step when log is omitted, the log line when it is sent', async () => {
      const run = await claimed(robo, await newTask());
      let body = await report(robo, run.id, { step: 'reading auth.ts' });
      expect(body.run.log!.map((l) => l.text)).toEqual(['started: Fix it', 'reading auth.ts']);
      body = await report(robo, run.id, { step: 'fixing', log: 'found the bug' });
      expect(body.run.log!.map((l) => l.text)).toEqual(['started: Fix it', 'reading auth.ts', 'found the bug']);
      expect(body.run.step).toBe('fixing');
      expect(body.run.log![2]).toEqual({ at: expect.stringMatching(ISO), text: 'found the bug', by: null });
    });

    it('open statuses write no feed line and leave endedAt null', async () => {
      const taskId = await newTask();
      const run = await claimed(robo, taskId);
      for (const body of [{ status: 'paused' }, { status: 'running' }, { status: 'waiting' }, { status: 'handed_over', step: 'Bea' }, { status: 'running' }]) {
        const answer = await report(robo, run.id, body);
        expect(answer.run.status).toBe(body.status);
        expect(answer.run.endedAt).toBeNull();
      }
      expect(await runLines(taskId)).toEqual([]);
    });

    it.each(['done', 'failed', 'stopped', 'lost'])('closing with %s stamps endedAt, writes a run feed line and leaves the board', async (status) => {
      const taskId = await newTask();
      const run = await claimed(robo, taskId);
      expect((await boardRuns()).map((r) => r.id)).toContain(run.id);
      const answer = await report(robo, run.id, { status });
      expect(answer.run.status).toBe(status);
      expect(answer.run.endedAt).toMatch(ISO);
      const stored = await row(run.id);
      expect(stored.status).toBe(status);
      expect(stored.endedAt).toBe(answer.run.endedAt);
      expect(await runLines(taskId)).toEqual([{ data: { runId: run.id, status }, actorId: robo.agent.id }]);
      expect((await boardRuns()).map((r) => r.id)).not.toContain(run.id);
    });

    it('the owning agent may end its own waiting run', async () => {
      const taskId = await newTask();
      const run = await claimed(robo, taskId);
      await report(robo, run.id, { status: 'waiting' });
      const answer = await report(robo, run.id, { status: 'stopped' });
      expect(answer.run).toMatchObject({ status: 'stopped', endedAt: expect.stringMatching(ISO) });
    });
  });

  describe('GET /api/runs/:runId', () => {
    it('answers a person and the agent with the plan and the log; a closed run reads the same', async () => {
      const run = await claimed(robo, await newTask());
      const byPerson = await readRun(run.id, member.client);
      const byAgent = await readRun(run.id, robo.client);
      expect(byAgent).toEqual(byPerson);
      expect(Object.keys(byPerson).sort()).toEqual(RUN_KEYS);
      await report(robo, run.id, { status: 'done' });
      const closed = await readRun(run.id, bot.client);
      expect(Object.keys(closed).sort()).toEqual(RUN_KEYS);
      expect(closed).toMatchObject({ status: 'done', endedAt: expect.stringMatching(ISO), steps: byPerson.steps, log: byPerson.log });
      expect((await outsider.client.get(`/runs/${run.id}`)).status).toBe(404);
    });

    it('the log holds the last 40 lines, oldest first, after 60 reports', async () => {
      const run = await claimed(robo, await newTask());
      for (let i = 1; i <= 60; i++) await report(robo, run.id, { log: `line ${i}` });
      const read = await readRun(run.id);
      expect(read.log!.map((l) => l.text)).toEqual(Array.from({ length: 40 }, (_, i) => `line ${i + 21}`));
      expect(read.lastLog).toBe('line 60');
      const task = (await owner.client.get(`/tasks/${run.taskId}`)).body.task;
      expect(task.run!.log!.map((l) => l.text)).toEqual(read.log!.map((l) => l.text));
    });
  });

  describe('GET /api/tasks/:taskId/runs?before= (past runs)', () => {
    let taskId: string;
    let open: Awaited<ReturnType<typeof claimed>>;
    const closedIds: string[] = [];

    beforeAll(async () => {
      taskId = await newTask('Many runs');
      for (let i = 1; i <= 45; i++) {
        const run = await claimed(i % 2 ? robo : bot, taskId, { goal: `goal ${i}`, steps: ['a', 'b'] });
        await report(i % 2 ? robo : bot, run.id, { status: i % 3 ? 'done' : 'failed', step: `last step ${i}` });
        closedIds.push(run.id);
      }
      open = await claimed(robo, taskId, { goal: 'current' });
    });

    it('refuses a missing before, a bad id, and a run of another task', async () => {
      let res = await owner.client.get(`/tasks/${taskId}/runs`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: BEFORE_MISSING });
      res = await owner.client.get(`/tasks/${taskId}/runs?before=`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: BEFORE_MISSING });
      res = await owner.client.get(`/tasks/${taskId}/runs?before=abc`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: NOT_RUN_ID });
      const otherTask = await newTask();
      const other = await claimed(robo, otherTask);
      res = await owner.client.get(`/tasks/${taskId}/runs?before=${other.id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: RUN_NOT_FOUND });
      res = await owner.client.get(`/tasks/${taskId}/runs?before=${randomUUID()}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: RUN_NOT_FOUND });
    });

    it('pages of 20, newest start first, with more; rows carry only the listed keys', async () => {
      const newestFirst = [...closedIds].reverse();
      let res = await member.client.get(`/tasks/${taskId}/runs?before=${open.id}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['more', 'runs']);
      expect(res.body.more).toBe(true);
      expect(res.body.runs.map((r) => r.id)).toEqual(newestFirst.slice(0, 20));
      for (const r of res.body.runs) expect(Object.keys(r).sort()).toEqual(PAST_KEYS);
      expect(res.body.runs[0]).toEqual({
        id: closedIds[44],
        goal: 'goal 45',
        step: 'last step 45',
        status: 'failed',
        startedAt: expect.stringMatching(ISO),
        endedAt: expect.stringMatching(ISO),
        agent: agentView(robo),
        links: [],
        usage: { inputTokens: 0, outputTokens: 0, costMicros: 0, model: null },
      });
      expect(res.body.runs[1]).toMatchObject({ goal: 'goal 44', status: 'done', agent: agentView(bot) });

      res = await robo.client.get(`/tasks/${taskId}/runs?before=${res.body.runs[19].id}`);
      expect(res.body.runs.map((r) => r.id)).toEqual(newestFirst.slice(20, 40));
      expect(res.body.more).toBe(true);

      res = await robo.client.get(`/tasks/${taskId}/runs?before=${res.body.runs[19].id}`);
      expect(res.body.runs.map((r) => r.id)).toEqual(newestFirst.slice(40));
      expect(res.body.more).toBe(false);

      res = await robo.client.get(`/tasks/${taskId}/runs?before=${closedIds[0]}`);
      expect(res.body).toEqual({ runs: [], more: false });
    });

    it('a page before exactly 20 older runs says no more', async () => {
      const res = await owner.client.get(`/tasks/${taskId}/runs?before=${closedIds[20]}`);
      expect(res.body.runs.map((r) => r.id)).toEqual(closedIds.slice(0, 20).reverse());
      expect(res.body.more).toBe(false);
    });

    it('the task read carries the open run in full and at most 20 past runs with only the listed keys', async () => {
      const res = await owner.client.get(`/tasks/${taskId}`);
      expect(res.status).toBe(200);
      const task = res.body.task;
      expect(Object.keys(task.run!).sort()).toEqual(RUN_KEYS);
      expect(task.run).toMatchObject({ id: open.id, goal: 'current', status: 'running', log: [{ text: 'started: current', by: null, at: expect.any(String) }] });
      expect(task.pastRuns.map((r) => r.id)).toEqual([...closedIds].reverse().slice(0, 20));
      for (const r of task.pastRuns) expect(Object.keys(r).sort()).toEqual(PAST_KEYS);
    });

    it('a task without runs reads run null and no past runs', async () => {
      const res = await owner.client.get(`/tasks/${await newTask()}`);
      expect(res.body.task.run).toBeNull();
      expect(res.body.task.pastRuns).toEqual([]);
    });
  });

  describe('POST /api/runs/:runId/control', () => {
    it('is human only: an agent gets 403, even the owning one', async () => {
      const run = await claimed(robo, await newTask());
      for (const agent of [robo, bot]) {
        const res = await agent.client.post(`/runs/${run.id}/control`, { control: 'pause' });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: ONLY_PERSON });
      }
      expect((await row(run.id)).control).toBeNull();
      expect((await outsider.client.post(`/runs/${run.id}/control`, { control: 'pause' })).status).toBe(404);
    });

    it('refuses a word that is not a control word', async () => {
      const run = await claimed(robo, await newTask());
      for (const body of [{ control: 'halt' }, {}, { control: 'taken_over' }, { control: 'PAUSE' }]) {
        const res = await member.client.post(`/runs/${run.id}/control`, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: CONTROL_INVALID });
      }
    });

    it('pause: a plain member asks, the agent reads it in its beat, report and GET; paused answers it', async () => {
      const run = await claimed(robo, await newTask());
      const res = await member.client.post(`/runs/${run.id}/control`, { control: 'pause' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['run']);
      expect(res.body.run).toMatchObject({ status: 'running', control: 'pause', lastLog: 'Milo asked to pause.' });
      expect(res.body.run.log!.at(-1)).toEqual({ at: expect.stringMatching(ISO), text: 'Milo asked to pause.', by: { id: member.user.id, name: 'Milo' } });
      expect((await report(robo, run.id, { beat: true })).control).toBe('pause');
      expect((await readRun(run.id, robo.client)).control).toBe('pause');
      const answer = await report(robo, run.id, { log: 'finishing the line' });
      expect(answer.control).toBe('pause');
      const paused = await report(robo, run.id, { status: 'paused' });
      expect(paused.control).toBeNull();
      expect(paused.run.control).toBeNull();
      expect((await row(run.id)).control).toBeNull();
    });

    it('resume: the running report answers it', async () => {
      const run = await claimed(robo, await newTask());
      await report(robo, run.id, { status: 'paused' });
      const res = await owner.client.post(`/runs/${run.id}/control`, { control: 'resume' });
      expect(res.body.run).toMatchObject({ status: 'paused', control: 'resume', lastLog: 'Olive asked to resume.' });
      expect((await report(robo, run.id, { beat: true })).control).toBe('resume');
      expect((await report(robo, run.id, { status: 'running' })).control).toBeNull();
    });

    it('stop: the agent reads it, stopping answers it and ends the run', async () => {
      const taskId = await newTask();
      const run = await claimed(robo, taskId);
      const res = await member.client.post(`/runs/${run.id}/control`, { control: 'stop' });
      expect(res.body.run).toMatchObject({ status: 'running', control: 'stop', endedAt: null });
      expect((await report(robo, run.id, { log: 'heard' })).control).toBe('stop');
      const stopped = await report(robo, run.id, { status: 'stopped' });
      expect(stopped).toMatchObject({ control: null, run: { status: 'stopped', control: null, endedAt: expect.stringMatching(ISO) } });
      expect((await runLines(taskId)).map((l) => l.data)).toEqual([{ runId: run.id, status: 'stopped' }]);
    });

    it('take_over ends the run as taken_over, clears control and leaves the board', async () => {
      const taskId = await newTask();
      const run = await claimed(robo, taskId);
      // resume is a word no closing status answers: take_over must clear it itself
      expect((await owner.client.post(`/runs/${run.id}/control`, { control: 'resume' })).body.run.control).toBe('resume');
      expect((await boardRuns()).map((r) => r.id)).toContain(run.id);
      const res = await member.client.post(`/runs/${run.id}/control`, { control: 'take_over' });
      expect(res.status).toBe(200);
      expect(res.body.run).toMatchObject({ status: 'taken_over', control: null, endedAt: expect.stringMatching(ISO), lastLog: 'Milo took the task over.' });
      expect(await row(run.id)).toMatchObject({ status: 'taken_over', control: null });
      expect((await row(run.id)).endedAt).toMatch(ISO);
      expect(await runLines(taskId)).toEqual([{ data: { runId: run.id, status: 'taken_over' }, actorId: member.user.id }]);
      expect((await boardRuns()).map((r) => r.id)).not.toContain(run.id);
      expect((await owner.client.get(`/tasks/${taskId}`)).body.task.run).toBeNull();

      let after = await owner.client.post(`/runs/${run.id}/control`, { control: 'resume' });
      expect(after.status).toBe(409);
      expect(after.body).toEqual({ error: OVER });
      after = await robo.client.patch(`/runs/${run.id}`, { log: 'still here?' });
      expect(after.status).toBe(409);
      expect(after.body).toEqual({ error: CLOSED });
    });

    it('every word on a closed run is 409 That run is over.', async () => {
      const run = await claimed(robo, await newTask());
      await report(robo, run.id, { status: 'done' });
      for (const control of ['pause', 'resume', 'stop', 'take_over']) {
        const res = await owner.client.post(`/runs/${run.id}/control`, { control });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ error: OVER });
      }
      expect((await row(run.id)).status).toBe('done');
    });
  });

  describe('board runs', () => {
    it('lists open runs only, with card fields and without plan or log', async () => {
      const pid = (await createProject(owner.client, 'Board runs', 'BRD')).id;
      const agent = await createAgent(owner.client, pid, 'Carder');
      const t1 = await newTask('one', pid);
      const t2 = await newTask('two', pid);
      const t3 = await newTask('three', pid);
      const r1 = await claimed(agent, t1, { goal: 'one', steps: ['a', 'b', 'c'] });
      await report(agent, r1.id, { stepIndex: 1, log: 'half way' });
      const r2 = await claimed(agent, t2, { goal: 'two' });
      await report(agent, r2.id, { status: 'waiting', step: 'asked a question' });
      const r3 = await claimed(agent, t3, { goal: 'three' });
      await report(agent, r3.id, { status: 'done' });

      const runs = await boardRuns(pid);
      expect(runs.map((r) => r.id).sort()).toEqual([r1.id, r2.id].sort());
      for (const r of runs) {
        expect(Object.keys(r).sort()).toEqual(BOARD_RUN_KEYS);
        expect(r.endedAt).toBeNull();
      }
      expect(runs.find((r) => r.id === r1.id)).toMatchObject({ taskId: t1, stepsTotal: 3, stepsDone: 1, lastLog: 'half way', agent: agentView(agent) });
      expect(runs.find((r) => r.id === r2.id)).toMatchObject({ status: 'waiting', stepsTotal: 0, stepsDone: 0, lastLog: 'asked a question' });
      // the same rows an agent reads
      expect(await boardRuns(pid, agent.client)).toEqual(runs);
    });
  });

  describe('GET /api/agent/me waiting', () => {
    it('counts live tasks with a waiting run; archived and deleted tasks are left out', async () => {
      const pid = (await createProject(owner.client, 'Waiting', 'WAIT')).id;
      const agent = await createAgent(owner.client, pid, 'Asker');
      const waiting = async () => {
        const res = await agent.client.get('/agent/me')!;
        expect(res.status).toBe(200);
        return res.body.project.waiting;
      };
      expect(await waiting()).toBe(0);
      const tasks = [];
      for (const title of ['w1', 'w2', 'w3', 'running', 'handed', 'closed']) tasks.push(await newTask(title, pid));
      const runs = [];
      for (const taskId of tasks) runs.push(await claimed(agent, taskId));
      await report(agent, runs[0].id, { status: 'waiting' });
      await report(agent, runs[1].id, { status: 'waiting' });
      await report(agent, runs[2].id, { status: 'waiting' });
      await report(agent, runs[4].id, { status: 'handed_over', step: 'Olive' });
      await report(agent, runs[5].id, { status: 'waiting' });
      await report(agent, runs[5].id, { status: 'done' });
      expect(await waiting()).toBe(3);

      expect((await owner.client.post(`/tasks/${tasks[1]}/archive`)).status).toBe(200);
      expect(await waiting()).toBe(2);
      expect((await owner.client.delete(`/tasks/${tasks[2]}`)).status).toBe(200);
      expect(await waiting()).toBe(1);
      await report(agent, runs[0].id, { status: 'running' });
      expect(await waiting()).toBe(0);

      const res = await owner.client.get('/agent/me')!;
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: ONLY_AGENT });
    });
  });

  describe('a comment on a task whose run waits', () => {
    it("a person's comment sets control resume and logs the answer; the agent reads it", async () => {
      const taskId = await newTask();
      const run = await claimed(robo, taskId);
      await report(robo, run.id, { status: 'waiting', step: 'Which database?' });
      const res = await member.client.post(`/tasks/${taskId}/comments`, { body: 'PostgreSQL' });
      expect(res.status).toBe(201);
      const read = await readRun(run.id, robo.client);
      expect(read).toMatchObject({ status: 'waiting', control: 'resume', lastLog: 'Milo answered in a comment.' });
      expect(read.log!.at(-1)).toEqual({ at: expect.stringMatching(ISO), text: 'Milo answered in a comment.', by: { id: member.user.id, name: 'Milo' } });
      expect((await report(robo, run.id, { beat: true })).control).toBe('resume');
      expect((await report(robo, run.id, { status: 'running' })).control).toBeNull();
    });

    it("an agent's comment does not wake the run", async () => {
      const taskId = await newTask();
      const run = await claimed(robo, taskId);
      await report(robo, run.id, { status: 'waiting', step: 'Which database?' });
      for (const agent of [robo, bot]) expect((await agent.client.post(`/tasks/${taskId}/comments`, { body: 'an agent says' })).status).toBe(201);
      const read = await readRun(run.id);
      expect(read.control).toBeNull();
      expect(read.log!.map((l) => l.text)).not.toContain('Bot answered in a comment.');
      expect(read.log!.map((l) => l.text)).not.toContain('Robo answered in a comment.');
    });

    it("a person's comment on a running run changes nothing; on a waiting run another pending word stays", async () => {
      const taskId = await newTask();
      const run = await claimed(robo, taskId);
      await owner.client.post(`/tasks/${taskId}/comments`, { body: 'hello' });
      let read = await readRun(run.id);
      expect(read.control).toBeNull();
      expect(read.log).toHaveLength(1);

      await report(robo, run.id, { status: 'waiting' });
      await owner.client.post(`/runs/${run.id}/control`, { control: 'stop' });
      await member.client.post(`/tasks/${taskId}/comments`, { body: 'answer' });
      read = await readRun(run.id);
      expect(read.control).toBe('stop');
      expect(read.lastLog).toBe('Milo answered in a comment.');
    });
  });
});
