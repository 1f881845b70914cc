import { expectStatus } from '../support/fixtures';
import { addMember, createAgent, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

/**
 * A run report writes the run with one compare-and-set on the row version the gate read (no
 * transaction, no lock), reading again when it loses and taking the row lock after three losses:
 * simultaneous reports and a person's control words on one run must never lose one another.
 */
describe('simultaneous reports on one run', () => {
  let t: TestApp;
  let owner: Person;
  let member: Person;
  let projectId: string;
  let robo: Awaited<ReturnType<typeof createAgent>>;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerPerson(t, 'Rhea');
    member = await registerPerson(t, 'Milo');
    projectId = (await createProject(owner.client, 'Report races', 'RR')).id;
    await addMember(owner.client, projectId, member);
    robo = await createAgent(owner.client, projectId, 'Robo');
  });
  afterAll(() => t?.close());

  const newRun = async (title: string) => {
    const task = (await expectStatus(owner.client.post(`/projects/${projectId}/tasks`, { title }), 201)).task;
    return (await expectStatus(robo.client.post(`/tasks/${task.id}/run`, { goal: title, steps: ['a', 'b', 'c', 'd'] }), 201)).run;
  };
  const read = async (runId: string) => (await expectStatus(owner.client.get(`/runs/${runId}`), 200)).run;

  it('keeps every one of 30 log lines sent at once, each once', async () => {
    const run = await newRun('Thirty at once');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => robo.client.patch(`/runs/${run.id}`, { log: `line ${i}` })));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const texts = ((await read(run.id)).log ?? []).map((l: { text: string }) => l.text).filter((x: string) => x.startsWith('line '));
    expect([...texts].sort()).toEqual(Array.from({ length: 30 }, (_, i) => `line ${i}`).sort());
    // Each answer shows its own line as the last one it saw land, and no answer shows a line twice.
    for (const [i, a] of answers.entries()) {
      const seen = (a.body.run.log ?? []).map((l: { text: string }) => l.text);
      expect(seen).toContain(`line ${i}`);
      expect(new Set(seen).size).toBe(seen.length);
    }
  });

  it('keeps a person’s pause that lands among reports: the control word stays, and every report is kept', async () => {
    const run = await newRun('Paused among reports');
    const reports = Array.from({ length: 12 }, (_, i) => robo.client.patch(`/runs/${run.id}`, { stepIndex: i % 4, log: `step ${i}` }));
    const pause = member.client.post(`/runs/${run.id}/control`, { control: 'pause' });
    const answers = await Promise.all([...reports, pause]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const after = await read(run.id);
    expect(after.control).toBe('pause');
    const texts = (after.log ?? []).map((l: { text: string }) => l.text);
    for (let i = 0; i < 12; i++) expect(texts).toContain(`step ${i}`);
    expect(texts).toContain('Milo asked to pause.');
    // The agent reads the word in its next report's answer.
    expect((await expectStatus(robo.client.patch(`/runs/${run.id}`, { beat: true }), 200)).control).toBe('pause');
  });

  it('keeps the highest usage totals sent at once; a total lower than one that landed first is refused, never kept', async () => {
    const run = await newRun('Usage at once');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => robo.client.patch(`/runs/${run.id}`, { usage: { inputTokens: (i + 1) * 3, outputTokens: (i + 1) * 5 } })),
    );
    for (const a of answers) expect(a.status === 200 || (a.status === 400 && a.body.error === "Usage only grows: send the run's totals so far.") || a.body).toBe(true);
    expect((await read(run.id)).usage).toMatchObject({ inputTokens: 60, outputTokens: 100 });
    // The report of the highest totals is never refused: nothing landed above it.
    expect(answers[19].status).toBe(200);
  });
});
