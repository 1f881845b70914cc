import { RunsService } from '../../apps/api/src/runs/runs.service';
import { expectStatus, listenChanges } from '../support/fixtures';
import { taskFeed } from '../support/builders-b';
import { Client, createAgent, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';
import type { MemberAnswer } from '../support/answers';

type Agent = { client: Client; agent: MemberAnswer; token: string };

describe('run lease', () => {
  let t: TestApp;
  let owner: Person;
  let projectA: string;
  let projectB: string;
  let agentA: Agent;
  let agentB: Agent;

  const service = () => t.app.get(RunsService, { strict: false });

  async function newTask(pid: string, title = 'A task'): Promise<string> {
    const res = await owner.client.post(`/projects/${pid}/tasks`, { title });
    expect(res.status).toBe(201);
    return res.body.task.id;
  }

  async function openRun(agent: Agent, pid: string, status: 'running' | 'paused' | 'waiting' | 'handed_over' = 'running') {
    const taskId = await newTask(pid);
    const res = await agent.client.post(`/tasks/${taskId}/run`, { goal: 'work', steps: ['a', 'b'] });
    expect(res.status).toBe(201);
    const run = res.body.run;
    if (status !== 'running') {
      const rep = await agent.client.patch(`/runs/${run.id}`, status === 'handed_over' ? { status, step: 'Olive has it' } : { status });
      expect(rep.status).toBe(200);
    }
    return { taskId, runId: run.id as string };
  }

  // A forced clock: the run's last report and beat are moved back by `interval`.
  const age = (runId: string, interval = '31 minutes') =>
    t.sql.query(`UPDATE runs SET updated_at = now() - $2::interval, beat_at = now() - $2::interval WHERE id = $1`, [runId, interval]);
  /** A run as `GET /runs/:runId` answers it (that read closes nothing, unlike the board's). */
  const row = async (runId: string) => (await expectStatus(owner.client.get(`/runs/${runId}`), 200)).run;
  const runLines = async (taskId: string) => (await taskFeed(owner.client, taskId, 'run')).map(({ data, actorId }) => ({ data, actorId }));
  const board = async (pid: string) => {
    const res = await owner.client.get(`/projects/${pid}/board`);
    expect(res.status).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerPerson(t, 'Olive');
    projectA = (await createProject(owner.client, 'Lease A', 'LSA')).id;
    projectB = (await createProject(owner.client, 'Lease B', 'LSB')).id;
    agentA = await createAgent(owner.client, projectA, 'Robo');
    agentB = await createAgent(owner.client, projectB, 'Bot');
  });

  afterAll(async () => {
    await t?.close();
  });

  it('a board read closes a run with no report for 31 minutes as lost, with a run feed line and a ring', async () => {
    const { taskId, runId } = await openRun(agentA, projectA);
    expect((await board(projectA)).runs.map((r) => r.id)).toContain(runId);
    await age(runId);
    const changes = await listenChanges(t.databaseUrl);
    try {
      const read = await board(projectA);
      expect(read.runs.map((r) => r.id)).not.toContain(runId);
      const stored = await row(runId);
      expect(stored.status).toBe('lost');
      expect(new Date(stored.endedAt ?? NaN).getTime()).not.toBeNaN();
      expect(await runLines(taskId)).toEqual([{ data: { runId, status: 'lost' }, actorId: null }]);
      const seen = await changes.take();
      expect(seen).toContainEqual(expect.objectContaining({ projectId: projectA, taskId }));
    } finally {
      await changes.close();
    }
    const run = (await owner.client.get(`/runs/${runId}`)).body.run;
    expect(run).toMatchObject({ status: 'lost', endedAt: expect.any(String) });
    expect((await owner.client.get(`/tasks/${taskId}`)).body.task).toMatchObject({ run: null, pastRuns: [expect.objectContaining({ id: runId, status: 'lost' })] });
    // the agent that comes back late finds its run closed
    const late = await agentA.client.patch(`/runs/${runId}`, { log: 'back' });
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ error: 'That run is closed.' });
    // a second read closes nothing more
    await board(projectA);
    expect(await runLines(taskId)).toHaveLength(1);
  });

  it('the board read answers an empty runs list once its only run was lost', async () => {
    const pid = (await createProject(owner.client, 'Lease solo', 'LSS')).id;
    const agent = await createAgent(owner.client, pid, 'Solo');
    const { runId } = await openRun(agent, pid);
    await age(runId);
    expect((await board(pid)).runs).toEqual([]);
  });

  it('a run quiet for 29 minutes stays open', async () => {
    const { taskId, runId } = await openRun(agentA, projectA);
    await age(runId, '29 minutes');
    expect((await board(projectA)).runs.map((r) => r.id)).toContain(runId);
    expect((await row(runId)).status).toBe('running');
    expect(await runLines(taskId)).toEqual([]);
  });

  it('a paused run is closed like a running one', async () => {
    const { runId } = await openRun(agentA, projectA, 'paused');
    await age(runId);
    await board(projectA);
    expect((await row(runId)).status).toBe('lost');
  });

  it('a fresh beat does not keep the lease: only reports count', async () => {
    const { runId } = await openRun(agentA, projectA);
    // A forced clock: the last report 31 minutes back, the beat left fresh.
    await t.sql.query(`UPDATE runs SET updated_at = now() - interval '31 minutes' WHERE id = $1`, [runId]);
    expect((await agentA.client.patch(`/runs/${runId}`, { beat: true })).status).toBe(200);
    await board(projectA);
    expect((await row(runId)).status).toBe('lost');
  });

  it('a run whose report_due_at has passed is closed even though it reported a minute ago', async () => {
    const { taskId, runId } = await openRun(agentA, projectA);
    expect((await agentA.client.patch(`/runs/${runId}`, { reportFor: 5 })).status).toBe(200);
    // A forced clock: the report was due a second ago.
    await t.sql.query(`UPDATE runs SET updated_at = now() - interval '1 minute', report_due_at = now() - interval '1 second' WHERE id = $1`, [runId]);
    expect((await board(projectA)).runs.map((r) => r.id)).not.toContain(runId);
    expect((await row(runId)).status).toBe('lost');
    expect((await runLines(taskId)).map((l) => l.data)).toEqual([{ runId, status: 'lost' }]);
  });

  it('a run whose report_due_at is still ahead is kept past 30 minutes', async () => {
    const { runId } = await openRun(agentA, projectA);
    expect((await agentA.client.patch(`/runs/${runId}`, { reportFor: 60 })).status).toBe(200);
    // A forced clock: the last report 45 minutes back, the report due in 15.
    await t.sql.query(`UPDATE runs SET updated_at = now() - interval '45 minutes', report_due_at = now() + interval '15 minutes' WHERE id = $1`, [runId]);
    expect((await board(projectA)).runs.map((r) => r.id)).toContain(runId);
    await service().expireOverdue();
    expect((await row(runId)).status).toBe('running');
  });

  it.each(['waiting', 'handed_over'] as const)('a %s run is never closed by the lease', async (status) => {
    const { taskId, runId } = await openRun(agentA, projectA, status);
    // A forced clock: three days without a report, the report two days overdue.
    await t.sql.query(
      `UPDATE runs SET updated_at = now() - interval '3 days', beat_at = now() - interval '3 days', report_due_at = now() - interval '2 days' WHERE id = $1`,
      [runId],
    );
    expect((await board(projectA)).runs.map((r) => r.id)).toContain(runId);
    await service().expireOverdue();
    await service().expireOverdue(projectA);
    expect(await row(runId)).toMatchObject({ status, endedAt: null });
    expect(await runLines(taskId)).toEqual([]);
  });

  it("a board read closes only its own project's runs; expireOverdue() closes every project's", async () => {
    const a = await openRun(agentA, projectA);
    const b = await openRun(agentB, projectB);
    await age(a.runId);
    await age(b.runId);
    await board(projectA);
    expect((await row(a.runId)).status).toBe('lost');
    expect((await row(b.runId)).status).toBe('running');

    const a2 = await openRun(agentA, projectA);
    await age(a2.runId);
    const closed = await service().expireOverdue();
    expect(closed).toBeGreaterThanOrEqual(2);
    expect((await row(b.runId)).status).toBe('lost');
    expect((await row(a2.runId)).status).toBe('lost');
    expect((await runLines(b.taskId)).map((l) => l.data)).toEqual([{ runId: b.runId, status: 'lost' }]);
    expect(await service().expireOverdue()).toBe(0);
  });

  it('two expireOverdue() at once close each run once', async () => {
    const runs = [];
    for (let i = 0; i < 6; i++) runs.push(await openRun(agentA, projectA));
    for (let i = 0; i < 6; i++) runs.push(await openRun(agentB, projectB));
    for (const r of runs) await age(r.runId);
    const [first, second] = await Promise.all([service().expireOverdue(), service().expireOverdue()]);
    expect(first + second).toBe(runs.length);
    for (const r of runs) {
      expect((await row(r.runId)).status).toBe('lost');
      expect((await runLines(r.taskId)).map((l) => l.data)).toEqual([{ runId: r.runId, status: 'lost' }]);
    }
  });

  it('two board reads at once close each run once', async () => {
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await openRun(agentA, projectA));
    for (const r of runs) await age(r.runId);
    await Promise.all([board(projectA), board(projectA), board(projectA)]);
    for (const r of runs) expect(await runLines(r.taskId)).toHaveLength(1);
  });
});
