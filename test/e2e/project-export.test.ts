import { aBoard, aTeam, optionId, Team } from '../support/builders';
import { expectStatus } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Doc = {
  format: string;
  version: number;
  exportedAt: string;
  project: { id: string; name: string; key: string; members: { id: string; name: string; email: string | null; kind: string; role: string }[] };
  properties: { id: string; name: string; type: string; options: { id: string; name: string }[] }[];
  views: { id: string; name: string; filters: { rules: unknown[] }; cardView: unknown }[];
  cardView: unknown;
  rules: { text: string | null };
  tasks: {
    id: string; number: number; title: string; values: Record<string, unknown>; parentId: string | null; archivedAt: string | null; deletedAt: string | null;
    blockers: string[]; checklist: { text: string; done: boolean }[]; comments: { body: string; author: { name: string; email: string | null } }[];
  }[];
  runs: { taskId: string; status: string; steps: unknown; log: unknown; links: unknown; question: unknown; costMicros: string; days: unknown[] }[];
  activity: { kind: string; taskId: string | null }[];
  attachments: unknown[];
};

/** GET /api/projects/:projectId/export (extensions.md § 3.4): the whole project, no secret. */
describe('GET /api/projects/:projectId/export', () => {
  let t: TestApp;
  let team: Team;
  let text: string;
  let doc: Doc;
  const secrets: string[] = [];

  /** A set-up write that must land (the routes answer 200 or 201). */
  const done = async (res: Promise<{ status: number; body: unknown }>) => {
    const r = await res;
    if (r.status >= 300) throw new Error(`set-up refused: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };

  beforeAll(async () => {
    t = await startTestApp();
    team = await aTeam(t, { key: 'EXP', properties: { Size: ['select', ['S', 'L']], Owner: ['person'], Due: ['date'], Notes: ['text'] } });
    const { owner, member, agent, project, props, status } = team;
    const pid = project.id;
    secrets.push(agent.token);
    const hook = await expectStatus(owner.client.post(`/projects/${pid}/webhooks`, { url: 'https://hooks.example.com/in', kinds: [] }), 201);
    secrets.push(hook.secret);
    if (owner.client.cookie) secrets.push(owner.client.cookie);
    const [a, b, c, d] = await aBoard(owner.client, pid, 4, {
      values: (i) => ({ [props.Size.id]: optionId(props.Size, i % 2 ? 'L' : 'S'), [props.Owner.id]: member.user.id, [props.Due.id]: '2026-12-0' + (i + 1), [props.Notes.id]: `note ${i}` }),
    });
    await expectStatus(owner.client.put(`/tasks/${b.id}/parent`, { parentId: a.id }), 200);
    await done(owner.client.post(`/tasks/${a.id}/blockers`, { blockerId: c.id }));
    await done(member.client.post(`/tasks/${a.id}/checklist`, { text: 'Write the tests' }));
    await done(member.client.post(`/tasks/${a.id}/comments`, { body: 'Looks good' }));
    await expectStatus(owner.client.post(`/tasks/${c.id}/archive`), 200);
    await expectStatus(owner.client.delete(`/tasks/${d.id}`), 200);
    const board = await expectStatus(owner.client.get(`/projects/${pid}/board`), 200);
    await expectStatus(owner.client.patch(`/views/${board.views[0].id}`, { filters: { rules: [{ propertyId: status.id, op: 'is', values: [optionId(status, 'Done')] }] } }), 200);
    const run = await expectStatus(agent.client.post(`/tasks/${a.id}/run`, { goal: 'Fix it', steps: ['read', 'fix'] }), 201);
    await expectStatus(agent.client.patch(`/runs/${run.run.id}`, {
      log: 'reading', links: [{ url: 'https://git.example.com/pr/1', title: 'The fix', kind: 'pr' }],
      usage: { inputTokens: 1000, outputTokens: 200, costMicros: 5000, model: 'big-model' },
      status: 'waiting', question: { text: 'Ship it?', options: ['Yes', 'No'] },
    }), 200);
    const answer = await owner.client.get(`/projects/${pid}/export`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="EXP-export.json"');
    doc = answer.body as Doc;
    text = JSON.stringify(doc);
  });
  afterAll(() => t?.close());

  it('says what it is, and holds the project with its members', () => {
    expect(doc).toMatchObject({ format: 'task-board-export', version: 1 });
    expect(Date.parse(doc.exportedAt)).not.toBeNaN();
    expect(Object.keys(doc)).toEqual(['format', 'version', 'exportedAt', 'project', 'properties', 'views', 'cardView', 'rules', 'tasks', 'runs', 'activity', 'attachments']);
    expect(doc.project).toMatchObject({ id: team.project.id, key: 'EXP' });
    expect(doc.project.members.map((m) => [m.name, m.kind, m.role]).sort()).toEqual([['Milo', 'human', 'member'], ['Olive', 'human', 'owner'], ['Robo', 'agent', 'member']].sort());
    expect(doc.project.members.find((m) => m.name === 'Milo')?.email).toBe(team.member.user.email);
  });

  it('holds every property with its options, and the views with their filters', () => {
    expect(doc.properties.map((p) => [p.name, p.type])).toEqual([['Status', 'select'], ['Size', 'select'], ['Owner', 'person'], ['Due', 'date'], ['Notes', 'text']]);
    expect(doc.properties[1].options.map((o) => o.name)).toEqual(['S', 'L']);
    expect(doc.views[0].filters.rules).toHaveLength(1);
  });

  it('holds live, archived and deleted tasks with values, parts, blockers, checklist and comments', () => {
    expect(doc.tasks.map((x) => x.number)).toEqual([1, 2, 3, 4]);
    const [a, b, c, d] = doc.tasks;
    expect(a.values[team.props.Owner.id]).toBe(team.member.user.id);
    expect(b.parentId).toBe(a.id);
    expect(a.blockers).toEqual([c.id]);
    expect(a.checklist).toMatchObject([{ text: 'Write the tests', done: false }]);
    expect(a.comments).toMatchObject([{ body: 'Looks good', author: { name: 'Milo', email: team.member.user.email } }]);
    expect(c.archivedAt).not.toBeNull();
    expect(d.deletedAt).not.toBeNull();
  });

  it('holds runs with their plan, log, links, usage and question, and the feed', () => {
    expect(doc.runs).toHaveLength(1);
    expect(doc.runs[0]).toMatchObject({ taskId: doc.tasks[0].id, status: 'waiting', costMicros: '5000', question: { text: 'Ship it?' } });
    expect(JSON.stringify(doc.runs[0].log)).toContain('reading');
    expect(JSON.stringify(doc.runs[0].links)).toContain('https://git.example.com/pr/1');
    expect(doc.runs[0].days).toHaveLength(1);
    const kinds = new Set(doc.activity.map((l) => l.kind));
    for (const kind of ['created', 'checklist', 'comment', 'archive', 'deleted', 'link']) expect(kinds).toContain(kind);
  });

  it('holds no secret of any kind', () => {
    expect(secrets.length).toBeGreaterThanOrEqual(2);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/\$argon2|svcs_|password|digest|secret|objectKey|object_key/i);
  });

  it('is for the owner and admins only', async () => {
    const path = `/projects/${team.project.id}/export`;
    expect([(await team.member.client.get(path)).status, (await team.member.client.get(path)).body]).toEqual([403, { error: 'Only the owner or an admin can export the project.' }]);
    expect((await team.agent.client.get(path)).status).toBe(403);
    expect((await team.outsider.client.get(path)).status).toBe(404);
  });
});
