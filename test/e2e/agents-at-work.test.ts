import { randomUUID } from 'node:crypto';
import { Clock, DAY } from '@board/kernel';
import { Agent, anAgent, aTeam, optionId, Team } from '../support/builders';
import { Client, createProject, startTestApp, TestApp } from '../support/test-app';

/** extensions.md § 1.1–1.4: the work queue, questions with choices, links, usage and a daily budget. */

const ONLY_AGENT = 'Only an agent can do this.';
const ONLY_PERSON = 'Only a person can do this.';
const NOT_VIEW_ID = 'That is not a view id.';
const VIEW_NOT_FOUND = 'View not found.';
const BUDGET_SPENT = "The project's daily budget is spent.";
const QUESTION_WAITING = 'A question goes with status waiting.';
const QUESTION_TEXT = 'A question needs its text, at most 500 characters.';
const QUESTION_OPTIONS = 'A question offers 2 to 10 different options, each 1 to 100 characters.';
const CHOOSE = "Choose from the question's options.";
const NO_OPEN_QUESTION = 'That run has no open question.';
const LINK_INVALID = 'A link is an http or https address of at most 2000 characters.';
const LINK_TITLE = 'A link title is at most 200 characters.';
const LINK_KIND = 'Link kind must be one of: pr, branch, commit, preview, session, doc, other.';
const LINKS_TOO_MANY = 'A run keeps at most 20 links.';
const USAGE_COUNTS = 'Usage counts are whole numbers, zero or more.';
const USAGE_SHRINKS = "Usage only grows: send the run's totals so far.";
const BUDGET_INVALID = 'The daily budget is a whole number above zero, or null.';
const BUDGET_LINE = "Paused: the project's daily budget is spent.";

/** A clock the test moves (a new UTC day lifts a spent budget). */
class MovableClock extends Clock {
  offset = 0;
  now(): Date {
    return new Date(Date.now() + this.offset);
  }
}

const refusal = (status: number, error: string) => ({ status, body: { error } });
const answer = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });

describe('agents at work', () => {
  const clock = new MovableClock();
  let t: TestApp;
  let team: Team;
  let projectId: string;
  let robo: Agent;

  beforeAll(async () => {
    t = await startTestApp({ clock });
    team = await aTeam(t, { key: 'WRK', properties: { Owner: ['person'] } });
    projectId = team.project.id;
    robo = team.agent;
  });
  afterAll(async () => {
    await t.close();
  });

  async function newTask(title: string, pid = projectId, as: Client = team.owner.client): Promise<string> {
    const res = await as.post(`/projects/${pid}/tasks`, { title });
    expect(res.status).toBe(201);
    return res.body.task?.id;
  }
  async function claim(agent: Agent, taskId: string): Promise<string> {
    const res = await agent.client.post(`/tasks/${taskId}/run`, { goal: 'Work' });
    expect(res.status).toBe(201);
    return res.body.run.id;
  }
  const report = (agent: Agent, runId: string, body: Record<string, unknown>) => agent.client.patch(`/runs/${runId}`, body);
  const readRun = async (runId: string) => {
    const res = await team.owner.client.get(`/runs/${runId}`);
    expect(res.status).toBe(200);
    return res.body.run;
  };
  /** A fresh project of its own for a test that must see every task of it. */
  async function freshProject(name: string) {
    const project = await createProject(team.owner.client, name);
    const agent = await anAgent(team.owner.client, project.id, `${name} bot`);
    return { projectId: project.id, agent };
  }

  describe('the work queue: POST /projects/{projectId}/runs/next', () => {
    it('is an agent’s: a person is refused, the view id is checked', async () => {
      expect(answer(await team.owner.client.post(`/projects/${projectId}/runs/next`, {}))).toEqual(refusal(403, ONLY_AGENT));
      expect(answer(await robo.client.post(`/projects/${projectId}/runs/next`, { viewId: 'nope' }))).toEqual(refusal(400, NOT_VIEW_ID));
      expect(answer(await robo.client.post(`/projects/${projectId}/runs/next`, { viewId: randomUUID() }))).toEqual(refusal(404, VIEW_NOT_FOUND));
      const foreignView = (await team.outsider.client.get(`/projects/${team.otherProject.id}/board`)).body.views[0].id;
      expect(answer(await robo.client.post(`/projects/${projectId}/runs/next`, { viewId: foreignView }))).toEqual(refusal(404, VIEW_NOT_FOUND));
      expect(answer(await robo.client.post(`/projects/${projectId}/runs/next`, { goal: 'x'.repeat(201) }))).toEqual(refusal(400, 'Goal is too long (max 200 characters).'));
    });

    it('claims the first eligible task by rank, as a claim would, and answers nothing when none is left', async () => {
      const { projectId: pid, agent } = await freshProject('Queue order');
      const statusProp = (await team.owner.client.get(`/projects/${pid}/board`)).body.properties.find((p: { name: string }) => p.name === 'Status');
      if (!statusProp) throw new Error('a new project has Status');
      const done = optionId(statusProp, 'Done');
      const archived = await newTask('archived', pid);
      expect((await team.owner.client.post(`/tasks/${archived}/archive`, {})).status).toBeLessThan(300);
      const deleted = await newTask('deleted', pid);
      expect((await team.owner.client.delete(`/tasks/${deleted}`)).status).toBeLessThan(300);
      const over = await newTask('over', pid);
      expect((await team.owner.client.put(`/tasks/${over}/values/${statusProp.id}`, { value: done })).status).toBe(200);
      const blocked = await newTask('blocked', pid);
      const blocker = await newTask('blocker', pid);
      expect((await team.owner.client.post(`/tasks/${blocked}/blockers`, { blockerId: blocker })).status).toBeLessThan(300);
      const taken = await newTask('taken', pid);
      const other = await anAgent(team.owner.client, pid, 'Other bot');
      await claim(other, taken);

      // The blocker is the only eligible task (blocked waits on it; the rest are not live, over or taken).
      const first = await agent.client.post(`/projects/${pid}/runs/next`, { goal: 'Unblock', steps: ['look', 'fix'] });
      expect(first.status).toBe(201);
      expect(first.body.task?.id).toBe(blocker);
      expect(first.body.task?.run?.id).toBe(first.body.run?.id);
      expect(first.body.run).toMatchObject({ taskId: blocker, status: 'running', goal: 'Unblock', step: 'look', question: null, links: [] });
      expect(first.body.run?.log?.map((l: { text: string }) => l.text)).toEqual(['started: Unblock']);
      const nothing = await agent.client.post(`/projects/${pid}/runs/next`, {});
      expect(answer(nothing)).toEqual({ status: 200, body: { run: null, task: null } });

      // The blocker is over: the blocked task becomes eligible.
      expect((await team.owner.client.put(`/tasks/${blocker}/values/${statusProp.id}`, { value: done })).status).toBe(200);
      const second = await agent.client.post(`/projects/${pid}/runs/next`, {});
      expect(second.status).toBe(201);
      expect(second.body.task?.id).toBe(blocked);
    });

    it('skips tasks another person is named on, takes those naming this agent, and follows a view’s filters and sort', async () => {
      const { projectId: pid, agent } = await freshProject('Queue people');
      const owner = team.owner.client;
      const person = (await owner.post(`/projects/${pid}/properties`, { name: 'Owner', type: 'person' })).body.property;
      const points = (await owner.post(`/projects/${pid}/properties`, { name: 'Points', type: 'number' })).body.property;
      const others = await newTask('another person’s', pid);
      expect((await owner.put(`/tasks/${others}/values/${person.id}`, { value: team.owner.user.id })).status).toBe(200);
      const mine = await newTask('mine', pid);
      expect((await owner.put(`/tasks/${mine}/values/${person.id}`, { value: agent.agent.id })).status).toBe(200);
      const small = await newTask('small', pid);
      const big = await newTask('big', pid);
      expect((await owner.put(`/tasks/${small}/values/${points.id}`, { value: 1 })).status).toBe(200);
      expect((await owner.put(`/tasks/${big}/values/${points.id}`, { value: 8 })).status).toBe(200);
      const view = (await owner.post(`/projects/${pid}/views`, { name: 'Pointed', kind: 'list' })).body.view;
      expect(
        (await owner.patch(`/views/${view.id}`, { filters: { rules: [{ propertyId: points.id, op: 'gt', text: '0' }] }, sort: { columnId: points.id, direction: 'desc' } }))
          .status,
      ).toBe(200);

      const viaView = await agent.client.post(`/projects/${pid}/runs/next`, { viewId: view.id });
      expect(viaView.body.task?.id).toBe(big);
      const viaView2 = await agent.client.post(`/projects/${pid}/runs/next`, { viewId: view.id });
      expect(viaView2.body.task?.id).toBe(small);
      expect((await agent.client.post(`/projects/${pid}/runs/next`, { viewId: view.id })).body).toEqual({ run: null, task: null });
      // Without the view: rank order, skipping the task another person holds.
      const rest = await agent.client.post(`/projects/${pid}/runs/next`, {});
      expect(rest.body.task?.id).toBe(mine);
      expect((await agent.client.post(`/projects/${pid}/runs/next`, {})).body).toEqual({ run: null, task: null });
    });

    it('gives 16 agents calling at once 10 distinct tasks and 6 nothings, every round', async () => {
      const { projectId: pid } = await freshProject('Queue race');
      const agents: Agent[] = [];
      for (let i = 0; i < 16; i++) agents.push(await anAgent(team.owner.client, pid, `Racer ${i}`));
      for (let round = 0; round < 3; round++) {
        const ids: string[] = [];
        for (let i = 0; i < 10; i++) ids.push(await newTask(`round ${round} task ${i}`, pid));
        const answers = await Promise.all(agents.map((a) => a.client.post(`/projects/${pid}/runs/next`, {})));
        const claimed = answers.filter((a) => a.status === 201).map((a) => a.body.task?.id as string);
        expect(answers.map((a) => a.status).sort()).toEqual([...Array(6).fill(200), ...Array(10).fill(201)]);
        expect(new Set(claimed).size).toBe(10);
        expect([...claimed].sort()).toEqual([...ids].sort());
        // Storage itself: a row count, since a task read shows one open run even if two were made.
        const open = await t.sql.query('SELECT count(*)::int AS n FROM runs WHERE project_id = $1 AND ended_at IS NULL AND task_id = ANY($2::uuid[])', [pid, ids]);
        expect(open.rows[0].n).toBe(10);
      }
    });
  });

  describe('questions with choices', () => {
    let runId: string;
    beforeAll(async () => {
      runId = await claim(robo, await newTask('Ask me'));
    });

    it('refuses a question without status waiting, or with bad text or options, and changes nothing', async () => {
      const before = await readRun(runId);
      const cases: [unknown, string, string?][] = [
        [{ text: 'Which?' }, QUESTION_WAITING, 'running'],
        [{ text: '' }, QUESTION_TEXT],
        [{ text: 'x'.repeat(501) }, QUESTION_TEXT],
        [{ text: 'Which?', options: ['only one'] }, QUESTION_OPTIONS],
        [{ text: 'Which?', options: Array.from({ length: 11 }, (_, i) => `o${i}`) }, QUESTION_OPTIONS],
        [{ text: 'Which?', options: ['Yes', ' yes '] }, QUESTION_OPTIONS],
        [{ text: 'Which?', options: ['Yes', '  '] }, QUESTION_OPTIONS],
        [{ text: 'Which?', options: ['Yes', 'x'.repeat(101)] }, QUESTION_OPTIONS],
      ];
      for (const [question, error, status] of cases) {
        expect(answer(await report(robo, runId, { status: status ?? 'waiting', question, log: 'should not land' }))).toEqual(refusal(400, error));
      }
      expect(await readRun(runId)).toEqual(before);
    });

    it('asks with options; every run read shows it; a person answers once, and the agent reads it with resume', async () => {
      const asked = await report(robo, runId, { status: 'waiting', question: { text: 'Which branch?', options: ['main', 'develop', 'release'], multiple: true } });
      expect(asked.status).toBe(200);
      const question = asked.body.run.question;
      expect(question).toEqual({
        id: expect.any(String), text: 'Which branch?', options: ['main', 'develop', 'release'], multiple: true, askedAt: expect.any(String), answer: null,
      });
      expect(asked.body.run.log?.at(-1)?.text).toBe('asked: Which branch?');
      const board = (await team.owner.client.get(`/projects/${projectId}/board`)).body;
      expect(board.runs.find((r: { id: string }) => r.id === runId)?.question).toEqual(question);
      const task = (await team.owner.client.get(`/tasks/${asked.body.run.taskId}`)).body.task;
      expect(task.run?.question).toEqual(question);

      expect(answer(await robo.client.post(`/runs/${runId}/answer`, { answer: ['main'] }))).toEqual(refusal(403, ONLY_PERSON));
      for (const bad of [[], ['master'], ['main', 'main'], 'main', [1], null]) {
        expect(answer(await team.member.client.post(`/runs/${runId}/answer`, { answer: bad }))).toEqual(refusal(400, CHOOSE));
      }
      const answered = await team.member.client.post(`/runs/${runId}/answer`, { answer: ['release', 'main'] });
      expect(answered.status).toBe(200);
      expect(answered.body.run.question?.answer).toEqual({
        text: 'main, release', choices: ['main', 'release'], by: { id: team.member.user.id, name: 'Milo' }, at: expect.any(String),
      });
      expect(answered.body.run.control).toBe('resume');
      expect(answered.body.run.log?.at(-1)).toMatchObject({ text: 'Milo answered: main, release', by: { id: team.member.user.id, name: 'Milo' } });
      expect(answer(await team.owner.client.post(`/runs/${runId}/answer`, { answer: ['main'] }))).toEqual(refusal(409, NO_OPEN_QUESTION));

      // The agent's beat reads the word; its read shows the answer; resuming clears the word.
      expect((await report(robo, runId, { beat: true })).body.control).toBe('resume');
      expect((await robo.client.get(`/runs/${runId}`)).body.run.question?.answer?.choices).toEqual(['main', 'release']);
      const resumed = await report(robo, runId, { status: 'running' });
      expect(resumed.body.control).toBeNull();
    });

    it('takes exactly one choice unless multiple, a free answer as text, and refuses a run that does not wait', async () => {
      await report(robo, runId, { status: 'waiting', question: { text: 'Ship it?', options: ['Yes', 'No'] } });
      expect(answer(await team.owner.client.post(`/runs/${runId}/answer`, { answer: ['Yes', 'No'] }))).toEqual(refusal(400, CHOOSE));
      // A new question replaces the last, answered or not.
      await report(robo, runId, { status: 'waiting', question: { text: 'Why?' } });
      expect((await readRun(runId)).question).toMatchObject({ text: 'Why?', options: null, multiple: false, answer: null });
      expect(answer(await team.owner.client.post(`/runs/${runId}/answer`, { answer: '  ' }))).toEqual(refusal(400, 'Answer cannot be empty.'));
      expect(answer(await team.owner.client.post(`/runs/${runId}/answer`, { answer: 'x'.repeat(2001) }))).toEqual(refusal(400, 'Answer is too long (max 2000 characters).'));
      expect(answer(await team.owner.client.post(`/runs/${runId}/answer`, { answer: 5 }))).toEqual(refusal(400, 'Answer must be text.'));
      const free = await team.owner.client.post(`/runs/${runId}/answer`, { answer: ' Because the tests pass. ' });
      expect(free.body.run.question?.answer).toMatchObject({ text: 'Because the tests pass.', choices: null, by: { name: 'Olive' } });
      await report(robo, runId, { status: 'running' });
      await report(robo, runId, { status: 'waiting' });
      // Waiting again without a new question: the old one is answered, so none is open.
      expect(answer(await team.owner.client.post(`/runs/${runId}/answer`, { answer: 'more' }))).toEqual(refusal(409, NO_OPEN_QUESTION));
      await report(robo, runId, { status: 'running' });
      await report(robo, runId, { status: 'waiting', question: { text: 'Last one?' } });
      await report(robo, runId, { status: 'running' });
      expect(answer(await team.owner.client.post(`/runs/${runId}/answer`, { answer: 'late' }))).toEqual(refusal(409, NO_OPEN_QUESTION));
      expect(answer(await team.owner.client.post(`/runs/${randomUUID()}/answer`, { answer: 'x' }))).toEqual(refusal(404, 'Run not found.'));
    });
  });

  describe('links', () => {
    it('keeps what a run produced, replaces by url, refuses bad links and more than 20, and shows them on past runs', async () => {
      const taskId = await newTask('Link me');
      const runId = await claim(robo, taskId);
      const bad: [unknown, string][] = [
        [[{ url: 'ftp://example.com/x' }], LINK_INVALID],
        [[{ url: 'javascript:alert(1)' }], LINK_INVALID],
        [[{ url: '/relative' }], LINK_INVALID],
        [[{ url: `https://example.com/${'x'.repeat(2000)}` }], LINK_INVALID],
        [[{}], LINK_INVALID],
        ['https://example.com', LINK_INVALID],
        [[{ url: 'https://example.com', title: 'x'.repeat(201) }], LINK_TITLE],
        [[{ url: 'https://example.com', kind: 'gist' }], LINK_KIND],
        [[{ url: 'https://example.com', kind: '' }], LINK_KIND],
        [Array.from({ length: 21 }, (_, i) => ({ url: `https://example.com/${i}` })), LINKS_TOO_MANY],
      ];
      for (const [links, error] of bad) expect(answer(await report(robo, runId, { links, log: 'no' }))).toEqual(refusal(400, error));
      expect((await readRun(runId)).log?.map((l: { text: string }) => l.text)).toEqual(['started: Work']);

      const first = await report(robo, runId, {
        links: [{ url: 'https://git.example.com/pr/1', title: 'The fix', kind: 'pr' }, { url: 'https://preview.example.com' }],
      });
      expect(first.body.run.links).toEqual([
        { url: 'https://git.example.com/pr/1', title: 'The fix', kind: 'pr', at: expect.any(String) },
        { url: 'https://preview.example.com', title: null, kind: 'other', at: expect.any(String) },
      ]);
      const replaced = await report(robo, runId, { links: [{ url: 'https://preview.example.com', title: 'Preview', kind: 'preview' }, { url: 'https://docs.example.com', kind: 'doc' }] });
      expect(replaced.body.run.links.map((l: { url: string; kind: string }) => `${l.kind} ${l.url}`)).toEqual([
        'pr https://git.example.com/pr/1', 'preview https://preview.example.com', 'doc https://docs.example.com',
      ]);
      const eighteen = Array.from({ length: 18 }, (_, i) => ({ url: `https://example.com/${i}` }));
      expect(answer(await report(robo, runId, { links: eighteen, step: 'should not land' }))).toEqual(refusal(400, LINKS_TOO_MANY));
      expect((await readRun(runId)).step).not.toBe('should not land');
      expect((await report(robo, runId, { links: eighteen.slice(0, 17) })).body.run.links).toHaveLength(20);

      await report(robo, runId, { status: 'done' });
      const past = (await team.owner.client.get(`/tasks/${taskId}`)).body.task.pastRuns[0];
      expect(past.links).toHaveLength(20);
      expect(past.usage).toEqual({ inputTokens: 0, outputTokens: 0, costMicros: 0, model: null });
    });
  });

  describe('usage and a daily budget', () => {
    it('refuses bad counts, only grows, counts a retried report once, and reads per agent and day', async () => {
      const { projectId: pid, agent } = await freshProject('Usage read');
      const ada = await anAgent(team.owner.client, pid, 'Ada');
      const runA = await claim(agent, await newTask('a', pid));
      const runB = await claim(ada, await newTask('b', pid));
      for (const usage of [{ inputTokens: -1 }, { outputTokens: 1.5 }, { costMicros: '3' }, { costMicros: 1e16 }, 'lots']) {
        expect(answer(await report(agent, runA, { usage, log: 'no' }))).toEqual(refusal(400, USAGE_COUNTS));
      }
      expect(answer(await report(agent, runA, { usage: { model: 'm'.repeat(101) } }))).toEqual(refusal(400, 'Model is too long (max 100 characters).'));
      const first = await report(agent, runA, { usage: { inputTokens: 1000, outputTokens: 200, costMicros: 5000, model: 'big-model' } });
      expect(first.body.run.usage).toEqual({ inputTokens: 1000, outputTokens: 200, costMicros: 5000, model: 'big-model' });
      // The same totals again (a retry) book nothing; a lower one is refused.
      await report(agent, runA, { usage: { inputTokens: 1000, outputTokens: 200, costMicros: 5000 } });
      expect(answer(await report(agent, runA, { usage: { costMicros: 4999 } }))).toEqual(refusal(400, USAGE_SHRINKS));
      await report(agent, runA, { usage: { costMicros: 7000 } });
      await report(ada, runB, { usage: { inputTokens: 10, costMicros: 9000 } });
      // Ada leaves the project: her usage is still listed.
      expect((await team.owner.client.delete(`/projects/${pid}/agents/${ada.agent.id}`)).status).toBeLessThan(300);

      const today = clock.now().toISOString().slice(0, 10);
      const read = await team.member.client.get(`/projects/${pid}/usage`);
      expect(read.status).toBe(404); // not a member of this fresh project
      const res = await team.owner.client.get(`/projects/${pid}/usage?from=${today}&to=${today}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        from: today, to: today, days: [today],
        total: { inputTokens: 1010, outputTokens: 200, costMicros: 16000, runs: 2 },
        agents: [
          { agent: { id: ada.agent.id, name: 'Ada', color: ada.agent.color, emoji: ada.agent.emoji }, inputTokens: 10, outputTokens: 0, costMicros: 9000, runs: 1, daily: [9000] },
          { agent: { id: agent.agent.id, name: agent.agent.name, color: agent.agent.color, emoji: agent.agent.emoji }, inputTokens: 1000, outputTokens: 200, costMicros: 7000, runs: 1, daily: [7000] },
        ],
      });
      const month = await agent.client.get(`/projects/${pid}/usage`);
      expect(month.body.days).toHaveLength(30);
      expect(month.body.agents[1].daily.at(-1)).toBe(7000);
      expect(answer(await team.owner.client.get(`/projects/${pid}/usage?from=yesterday`))).toEqual(refusal(400, 'From needs a date like YYYY-MM-DD.'));
      expect(answer(await team.owner.client.get(`/projects/${pid}/usage?from=2026-02-02&to=2026-02-01`))).toEqual(refusal(400, 'From must not be after To.'));
      expect(answer(await team.owner.client.get(`/projects/${pid}/usage?from=2020-01-01&to=2026-01-01`))).toEqual(refusal(400, 'Ask for at most 366 days.'));
    });

    it('pauses running runs when the day’s cost reaches the budget, refuses claims until a new day or a raised budget', async () => {
      const { projectId: pid, agent } = await freshProject('Budget');
      const owner = team.owner.client;
      for (const bad of [0, -5, 1.5, '100', true]) {
        expect(answer(await owner.patch(`/projects/${pid}`, { dailyBudgetMicros: bad }))).toEqual(refusal(400, BUDGET_INVALID));
      }
      const set = await owner.patch(`/projects/${pid}`, { dailyBudgetMicros: 10_000 });
      expect(set.status).toBe(200);
      expect(set.body.project.dailyBudgetMicros).toBe(10_000);
      const spender = await claim(agent, await newTask('spender', pid));
      const bystander = await claim(agent, await newTask('bystander', pid));
      const worded = await claim(agent, await newTask('worded', pid));
      expect((await owner.post(`/runs/${worded}/control`, { control: 'stop' })).status).toBe(200);
      const waiting = await claim(agent, await newTask('waiting', pid));
      await report(agent, waiting, { status: 'waiting' });

      const below = await report(agent, spender, { usage: { costMicros: 9_999 } });
      expect(below.body.control).toBeNull();
      const crossing = await report(agent, spender, { usage: { costMicros: 10_000 } });
      expect(crossing.body.control).toBe('pause');
      expect(crossing.body.run.log?.at(-1)).toMatchObject({ text: BUDGET_LINE, by: null });
      expect(await readRun(bystander)).toMatchObject({ control: 'pause', log: expect.arrayContaining([expect.objectContaining({ text: BUDGET_LINE, by: null })]) });
      expect((await readRun(worded)).control).toBe('stop');
      expect((await readRun(waiting)).control).toBeNull();

      const spare = await newTask('spare', pid);
      expect(answer(await agent.client.post(`/tasks/${spare}/run`, {}))).toEqual(refusal(409, BUDGET_SPENT));
      expect(answer(await agent.client.post(`/projects/${pid}/runs/next`, {}))).toEqual(refusal(409, BUDGET_SPENT));
      // A raised budget lifts it (paused runs stay paused until a person resumes them).
      await owner.patch(`/projects/${pid}`, { dailyBudgetMicros: 20_000 });
      expect((await readRun(bystander)).control).toBe('pause');
      const next = await agent.client.post(`/projects/${pid}/runs/next`, {});
      expect(next.status).toBe(201);
      expect(next.body.task?.id).toBe(spare);
      // A budget set at or below the day's cost pauses at once.
      const fresh = next.body.run?.id ?? '';
      const lowered = await owner.patch(`/projects/${pid}`, { dailyBudgetMicros: 5_000 });
      expect(lowered.status).toBe(200);
      expect((await readRun(fresh)).control).toBe('pause');
      expect(answer(await agent.client.post(`/projects/${pid}/runs/next`, {}))).toEqual(refusal(409, BUDGET_SPENT));
      // A new UTC day lifts it.
      const tomorrow = await newTask('tomorrow', pid);
      expect(answer(await agent.client.post(`/tasks/${tomorrow}/run`, {}))).toEqual(refusal(409, BUDGET_SPENT));
      clock.offset += DAY;
      try {
        expect((await agent.client.post(`/tasks/${tomorrow}/run`, {})).status).toBe(201);
      } finally {
        clock.offset -= DAY;
      }
      // null: no budget.
      const none = await owner.patch(`/projects/${pid}`, { dailyBudgetMicros: null });
      expect(none.body.project.dailyBudgetMicros).toBeNull();
      expect(answer(await team.member.client.patch(`/projects/${projectId}`, { dailyBudgetMicros: 5 }))).toEqual(
        refusal(403, 'Only the owner or an admin can change the project settings.'),
      );
    });

    it('never overflows the day’s cost: the sum saturates at the bigint ceiling instead of answering 500', async () => {
      const { projectId: pid, agent } = await freshProject('Usage ceiling');
      const runId = await claim(agent, await newTask('huge', pid));
      await report(agent, runId, { usage: { costMicros: 1 } });
      // Reaching the ceiling honestly takes thousands of runs at 10^15 each: the test puts the day's sum there directly.
      await t.sql.query(`UPDATE usage_project_days SET cost_micros = 9223372036854775000 WHERE project_id = $1`, [pid]);
      const res = await report(agent, runId, { usage: { costMicros: 1e15 } });
      expect(res.status).toBe(200);
      // Storage itself: the project's day sum the budget reads (no route shows it, nor a number this size exactly).
      const day = await t.sql.query(`SELECT cost_micros::text AS c FROM usage_project_days WHERE project_id = $1`, [pid]);
      expect(day.rows[0].c).toBe('9223372036854775807');
    });

    it('lets concurrent reports cross the budget once: every running run ends up paused', async () => {
      const { projectId: pid, agent } = await freshProject('Budget race');
      await team.owner.client.patch(`/projects/${pid}`, { dailyBudgetMicros: 8_000 });
      const runs: string[] = [];
      for (let i = 0; i < 8; i++) runs.push(await claim(agent, await newTask(`r${i}`, pid)));
      const answers = await Promise.all(runs.map((r) => report(agent, r, { usage: { costMicros: 1_000 } })));
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
      for (const r of runs) expect((await readRun(r)).control).toBe('pause');
      // Storage itself: the project's day sum the budget reads, which no route shows; lost updates would leave it short.
      const cost = await t.sql.query('SELECT cost_micros::int AS c FROM usage_project_days WHERE project_id = $1', [pid]);
      expect(cost.rows[0].c).toBe(8_000);
    });
  });
});
