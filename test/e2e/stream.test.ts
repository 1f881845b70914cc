/**
 * GET /api/projects/:projectId/stream and POST /api/projects/:projectId/presence
 * (interface.md › Events › Stream; decisions.md › Presence): wire format, one change per write
 * with the scope table, no ring for no-ops, presence, pings, several instances on one database,
 * the listener's reconnect and shutdown.
 */
import { randomUUID } from 'node:crypto';
import { PgNotificationListener } from '../../libs/persistence/src';
import { encode, PING_MS, RETRY_MS, StreamService } from '../../apps/api/src/events/stream.service';
import { SseReader } from '../support/sse';
import { Agent, anAgent, aTeam } from '../support/builders';
import { expectStatus } from '../support/fixtures';
import { Client, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';
import type { BoardTaskAnswer, ChecklistAddedAnswer, CommentAnswer, CreatedPropertyAnswer, CreatedTaskAnswer, StreamData, ViewAnswer } from '../support/answers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('change stream', () => {
  let t: TestApp;
  let owner: Person;
  let member: Person;
  let outsider: Person;
  let agent: Agent;
  let otherAgent: Agent;
  let projectId: string;
  let otherProjectId: string;
  let status: { id: string; options: { id: string; name: string }[] };
  let sentinelTask: CreatedTaskAnswer;
  /** A stream of the project opened by the member: the reader most checks look at. */
  let watch: SseReader;
  let otherWatch: SseReader;
  const readers: SseReader[] = [];
  const apps: TestApp[] = [];
  let tagCount = 0;
  const tag = (label: string) => `${label}-${++tagCount}`;

  const streamUrl = (app: TestApp, pid: string) => `${app.api}/projects/${pid}/stream`;

  async function open(app: TestApp, pid: string, as: { cookie?: string; token?: string }): Promise<SseReader> {
    const headers: Record<string, string> = {};
    if (as.cookie) headers.cookie = `service_session=${as.cookie}`;
    if (as.token) headers.authorization = `Bearer ${as.token}`;
    const reader = await SseReader.open(streamUrl(app, pid), headers);
    readers.push(reader);
    expect(reader.status).toBe(200);
    await reader.waitFor((e) => e.event === 'ready');
    return reader;
  }

  const tagged = (clientId: string) => ({ headers: { 'x-service-client': clientId } });
  const newTask = async (title: string, pid = projectId, c: Client = owner.client) =>
    (await expectStatus(c.post(`/projects/${pid}/tasks`, { title }), 201)).task;

  /** A real write that rings `task` for the sentinel task, tagged so it can be told apart. */
  async function sentinel(reader: SseReader): Promise<string> {
    const clientId = tag('sentinel');
    await expectStatus(owner.client.patch(`/tasks/${sentinelTask.id}`, { title: `Sentinel ${clientId}` }, tagged(clientId)), 200);
    await reader.waitFor((e) => e.event === 'change' && e.data?.clientId === clientId);
    return clientId;
  }

  /**
   * Settles earlier writes with a sentinel, runs `action`, then another sentinel write, and answers the change payloads the reader got from the
   * action: everything that arrived before and up to `quietMs` after the sentinel, the sentinel excluded.
   */
  async function changesOf(action: () => Promise<unknown>, reader: SseReader = watch, quietMs = 100): Promise<(StreamData | undefined)[]> {
    // A notice reaches the listener a moment after the writer's answer: let earlier writes land first.
    await sentinel(reader);
    const from = reader.events.length;
    await action();
    const sentinelId = await sentinel(reader);
    await sleep(quietMs);
    return reader.events
      .slice(from)
      .filter((e) => e.event === 'change' && e.data?.clientId !== sentinelId)
      .map((e) => e.data);
  }

  beforeAll(async () => {
    t = await startTestApp();
    apps.push(t);
    ({ owner, member, outsider, project: { id: projectId }, agent, status } = await aTeam(t, { name: 'Stream', key: 'STR' }));
    // The owner's own second project (ELS is the outsider's).
    otherProjectId = (await createProject(owner.client, 'Elsewhere', 'ELO')).id;
    otherAgent = await anAgent(owner.client, otherProjectId, 'Other robo');
    sentinelTask = await newTask('Sentinel');
    watch = await open(t, projectId, { cookie: member.client.cookie });
    otherWatch = await open(t, otherProjectId, { cookie: owner.client.cookie });
  });

  afterAll(async () => {
    for (const r of readers) r.close();
    for (const app of apps.reverse()) await app.close().catch(() => undefined);
  });

  describe('the wire', () => {
    it('answers the event-stream headers, then retry: 3000 and event: ready with {} first', async () => {
      const reader = await open(t, projectId, { cookie: owner.client.cookie });
      expect(reader.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(reader.headers['cache-control']).toBe('no-cache, no-transform');
      expect(reader.headers['connection']).toBe('keep-alive');
      expect(reader.headers['x-accel-buffering']).toBe('no');
      expect(reader.headers['x-service-version']).toEqual(expect.any(String));
      expect(reader.raw.startsWith('retry: 3000\n\nevent: ready\ndata: {}\n\n')).toBe(true);
      expect(reader.events.slice(0, 2)).toEqual([{ retry: 3000 }, { event: 'ready', data: {} }]);
      expect(RETRY_MS).toBe(3000);
      // ready is sent once: nothing else until something happens.
      await sleep(200);
      expect(reader.events).toHaveLength(2);
      reader.close();
    });

    it('writes a change as "event: change" and one JSON data line', async () => {
      const from = watch.raw.length;
      const clientId = tag('wire');
      const task = await newTask('On the wire');
      await expectStatus(owner.client.put(`/tasks/${task.id}/values/${status.id}`, { value: status.options[1].id }, tagged(clientId)), 200);
      await watch.waitFor((e) => e.event === 'change' && e.data?.clientId === clientId);
      const block = watch.raw.slice(from).split('\n\n').find((b) => b.includes(clientId))!;
      const lines = block.split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toBe('event: change');
      expect(lines[1].startsWith('data: ')).toBe(true);
      expect(JSON.parse(lines[1].slice(6))).toStrictEqual({ projectId, scope: 'board', clientId, taskId: task.id });
    });

    it('lets an agent subscribe with its token, and it gets changes', async () => {
      const reader = await open(t, projectId, { token: agent.token });
      expect(reader.events.slice(0, 2)).toEqual([{ retry: 3000 }, { event: 'ready', data: {} }]);
      const clientId = tag('agent-sees');
      await expectStatus(owner.client.post(`/projects/${projectId}/tasks`, { title: 'For the robot' }, tagged(clientId)), 201);
      const [seen] = await reader.waitFor((e) => e.event === 'change' && e.data?.clientId === clientId);
      expect(seen.data).toStrictEqual({ projectId, scope: 'board', clientId });
      reader.close();
    });

    it('answers 404 Project not found. to a non-member, 401 without a credential, 403 to a token of another project', async () => {
      const get = async (pid: string, headers: Record<string, string>) => {
        const res = await fetch(streamUrl(t, pid), { headers: { accept: 'text/event-stream', ...headers } });
        return { status: res.status, body: await res.json() };
      };
      expect(await get(projectId, { cookie: `service_session=${outsider.client.cookie}` })).toEqual({ status: 404, body: { error: 'Project not found.' } });
      expect(await get(randomUUID(), { cookie: `service_session=${owner.client.cookie}` })).toEqual({ status: 404, body: { error: 'Project not found.' } });
      expect(await get(projectId, {})).toEqual({ status: 401, body: { error: 'Sign in first, or send an agent token.' } });
      expect(await get(projectId, { authorization: `Bearer ${otherAgent.token}` })).toEqual({
        status: 403,
        body: { error: 'That token belongs to another project.' },
      });
      expect(await get('not-a-uuid', { cookie: `service_session=${owner.client.cookie}` })).toEqual({ status: 400, body: { error: 'That is not a project id.' } });
    });
  });

  describe('one change per write, by the scope table', () => {
    // Fixtures the rows write on.
    let task: CreatedTaskAnswer;
    let first: BoardTaskAnswer;
    let doomed: CreatedTaskAnswer;
    let property: CreatedPropertyAnswer;
    let option: CreatedPropertyAnswer['options'][number];
    let view: ViewAnswer;
    let item: ChecklistAddedAnswer;
    let comment: CommentAnswer;
    let late: Person;

    beforeAll(async () => {
      late = await registerPerson(t, 'Lena');
      task = await newTask('Scoped');
      first = (await expectStatus(owner.client.get(`/projects/${projectId}/board`), 200)).tasks[0];
      doomed = await newTask('Doomed');
      property = (await expectStatus(owner.client.post(`/projects/${projectId}/properties`, { name: 'Size', type: 'select', options: ['S', 'M'] }), 201)).property;
      option = property.options[0];
      view = (await expectStatus(owner.client.post(`/projects/${projectId}/views`, { name: 'List', kind: 'list' }), 201)).view;
      item = (await expectStatus(owner.client.post(`/tasks/${task.id}/checklist`, { text: 'Step one' }), 201)).item;
      comment = (await expectStatus(owner.client.post(`/tasks/${task.id}/comments`, { body: 'First words' }), 201)).comment;
    });

    const rows: [string, 'board' | 'task' | 'project', boolean, (c: Client, h: { headers: Record<string, string> }) => Promise<unknown>][] = [
      ['create a task', 'board', false, (c, h) => expectStatus(c.post(`/projects/${projectId}/tasks`, { title: 'Fresh' }, h), 201)],
      ['move a task', 'board', false, (c, h) => expectStatus(c.post(`/tasks/${task.id}/move`, { beforeId: first.id }, h), 200)],
      ['delete a task', 'board', false, (c, h) => expectStatus(c.delete(`/tasks/${doomed.id}`, undefined, h), 200)],
      ['write a value', 'board', true, (c, h) => expectStatus(c.put(`/tasks/${task.id}/values/${status.id}`, { value: status.options[2].id }, h), 200)],
      ['create a property', 'board', false, (c, h) => expectStatus(c.post(`/projects/${projectId}/properties`, { name: 'Notes', type: 'text' }, h), 201)],
      ['change a property', 'board', false, (c, h) => expectStatus(c.patch(`/properties/${property.id}`, { name: 'T-shirt size' }, h), 200)],
      ['create an option', 'board', false, (c, h) => expectStatus(c.post(`/properties/${property.id}/options`, { name: 'L' }, h), 201)],
      ['change an option', 'board', false, (c, h) => expectStatus(c.patch(`/options/${option.id}`, { name: 'Small' }, h), 200)],
      ['create a view', 'board', false, (c, h) => expectStatus(c.post(`/projects/${projectId}/views`, { name: 'Another list', kind: 'list' }, h), 201)],
      ['change a view', 'board', false, (c, h) => expectStatus(c.patch(`/views/${view.id}`, { name: 'Renamed list' }, h), 200)],
      ['edit a task', 'task', true, (c, h) => expectStatus(c.patch(`/tasks/${task.id}`, { title: 'Scoped, renamed', description: 'More words' }, h), 200)],
      ['add a checklist item', 'task', true, (c, h) => expectStatus(c.post(`/tasks/${task.id}/checklist`, { text: 'Step two' }, h), 201)],
      ['tick a checklist item', 'task', true, (c, h) => expectStatus(c.patch(`/checklist/${item.id}`, { done: true }, h), 200)],
      ['delete a checklist item', 'task', true, (c, h) => expectStatus(c.delete(`/checklist/${item.id}`, undefined, h), 200)],
      ['comment', 'task', true, (c, h) => expectStatus(c.post(`/tasks/${task.id}/comments`, { body: 'Second words' }, h), 201)],
      ['edit a comment', 'task', true, (c, h) => expectStatus(c.patch(`/comments/${comment.id}`, { body: 'First words, edited' }, h), 200)],
      ['rename the project', 'project', false, (c, h) => expectStatus(c.patch(`/projects/${projectId}`, { name: 'Stream, renamed' }, h), 200)],
      ['add a member', 'project', false, (c, h) => expectStatus(c.post(`/projects/${projectId}/members`, { email: late.email }, h), 201)],
      ['add an agent', 'project', false, (c, h) => expectStatus(c.post(`/projects/${projectId}/agents`, { name: 'Second robot' }, h), 201)],
    ];

    it.each(rows)('%s rings %s once, echoing the x-service-client header', async (_name, scope, withTask, write) => {
      const clientId = tag('row');
      const seen = await changesOf(() => write(owner.client, tagged(clientId)));
      const expected: Record<string, unknown> = { projectId, scope, clientId };
      if (withTask) expected.taskId = task.id;
      expect(seen).toStrictEqual([expected]);
    });

    it('sends clientId null for a write without the header', async () => {
      const seen = await changesOf(() => newTask('Untagged'));
      expect(seen).toStrictEqual([{ projectId, scope: 'board', clientId: null }]);
    });

    it('rings for an agent write too, with its tag', async () => {
      const clientId = tag('robot');
      const seen = await changesOf(() => expectStatus(agent.client.patch(`/tasks/${task.id}`, { description: 'The robot wrote this' }, tagged(clientId)), 200));
      expect(seen).toStrictEqual([{ projectId, scope: 'task', taskId: task.id, clientId }]);
    });

    it('rings the board for a real archive, a real put-back and a restore', async () => {
      const victim = await newTask('Comes and goes');
      expect(await changesOf(() => expectStatus(owner.client.post(`/tasks/${victim.id}/archive`), 200))).toStrictEqual([
        { projectId, scope: 'board', clientId: null },
      ]);
      expect(await changesOf(() => expectStatus(owner.client.delete(`/tasks/${victim.id}/archive`), 200))).toStrictEqual([
        { projectId, scope: 'board', clientId: null },
      ]);
      await expectStatus(owner.client.delete(`/tasks/${victim.id}`), 200);
      expect(await changesOf(() => expectStatus(owner.client.post(`/tasks/${victim.id}/restore`), 200))).toStrictEqual([
        { projectId, scope: 'board', clientId: null },
      ]);
    });

    it('rings once for a bulk value write on three tasks', async () => {
      const three = [await newTask('Bulk 1'), await newTask('Bulk 2'), await newTask('Bulk 3')];
      const clientId = tag('bulk');
      const seen = await changesOf(
        async () => {
          const body = await expectStatus(
            owner.client.post(`/projects/${projectId}/tasks/values`, { taskIds: three.map((x) => x.id), propertyId: status.id, value: status.options[1].id }, tagged(clientId)),
            200,
          );
          expect(body.set).toBe(3);
        },
        watch,
        500,
      );
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ projectId, scope: 'board', clientId });
    });

    it('never rings for a lens, and rings the board once for its promote', async () => {
      const lensView = (await expectStatus(owner.client.post(`/projects/${projectId}/views`, { name: 'Lensed', kind: 'list' }), 201)).view;
      const lens = { filters: { rules: [{ propertyId: status.id, op: 'is', values: [status.options[0].id] }] } };
      expect(await changesOf(() => expectStatus(owner.client.put(`/views/${lensView.id}/lens`, lens, tagged(tag('lens'))), 200), watch, 500)).toEqual([]);
      const clientId = tag('promote');
      expect(await changesOf(() => expectStatus(owner.client.post(`/views/${lensView.id}/lens/promote`, undefined, tagged(clientId)), 200))).toStrictEqual([
        { projectId, scope: 'board', clientId },
      ]);
    });
  });

  describe('writes that change nothing ring nothing', () => {
    let task: CreatedTaskAnswer;
    let blocker: CreatedTaskAnswer;
    let parent: CreatedTaskAnswer;

    beforeAll(async () => {
      task = await newTask('Still');
      blocker = await newTask('Blocker');
      parent = await newTask('Parent');
    });

    it('a PATCH that changes nothing (same words, or no field)', async () => {
      expect(await changesOf(() => expectStatus(owner.client.patch(`/tasks/${task.id}`, { title: 'Still' }, tagged(tag('same'))), 200), watch, 500)).toEqual([]);
      expect(await changesOf(() => expectStatus(owner.client.patch(`/tasks/${task.id}`, {}, tagged(tag('empty'))), 200), watch, 500)).toEqual([]);
      const property = (await expectStatus(owner.client.post(`/projects/${projectId}/properties`, { name: 'Quiet', type: 'text' }), 201)).property;
      expect(await changesOf(() => expectStatus(owner.client.patch(`/properties/${property.id}`, { nothing: true }, tagged(tag('prop'))), 200), watch, 500)).toEqual([]);
    });

    it('a second archive, and putting back a live task', async () => {
      const first = await changesOf(() => expectStatus(owner.client.post(`/tasks/${task.id}/archive`), 200));
      expect(first).toHaveLength(1);
      expect(await changesOf(() => expectStatus(owner.client.post(`/tasks/${task.id}/archive`, undefined, tagged(tag('again'))), 200), watch, 500)).toEqual([]);
      expect(await changesOf(() => expectStatus(owner.client.delete(`/tasks/${task.id}/archive`), 200))).toHaveLength(1);
      expect(await changesOf(() => expectStatus(owner.client.delete(`/tasks/${task.id}/archive`, undefined, tagged(tag('live'))), 200), watch, 500)).toEqual([]);
    });

    it('restoring a task that is not deleted', async () => {
      expect(await changesOf(() => expectStatus(owner.client.post(`/tasks/${task.id}/restore`, undefined, tagged(tag('restore'))), 200), watch, 500)).toEqual([]);
    });

    it('a link that is already there, and removing one that is gone', async () => {
      expect(await changesOf(() => expectStatus(owner.client.post(`/tasks/${task.id}/blockers`, { blockerId: blocker.id }), 200))).toHaveLength(1);
      expect(
        await changesOf(() => expectStatus(owner.client.post(`/tasks/${task.id}/blockers`, { blockerId: blocker.id }, tagged(tag('link'))), 200), watch, 500),
      ).toEqual([]);
      expect(await changesOf(() => expectStatus(owner.client.delete(`/tasks/${task.id}/blockers/${blocker.id}`), 200))).toHaveLength(1);
      expect(
        await changesOf(() => expectStatus(owner.client.delete(`/tasks/${task.id}/blockers/${blocker.id}`, undefined, tagged(tag('unlink'))), 200), watch, 500),
      ).toEqual([]);
    });

    it('the same parent again, and taking away a parent that is not there', async () => {
      expect(await changesOf(() => expectStatus(owner.client.put(`/tasks/${task.id}/parent`, { parentId: parent.id }), 200))).toHaveLength(1);
      expect(
        await changesOf(() => expectStatus(owner.client.put(`/tasks/${task.id}/parent`, { parentId: parent.id }, tagged(tag('parent'))), 200), watch, 500),
      ).toEqual([]);
      expect(await changesOf(() => expectStatus(owner.client.delete(`/tasks/${task.id}/parent`), 200))).toHaveLength(1);
      expect(await changesOf(() => expectStatus(owner.client.delete(`/tasks/${task.id}/parent`, undefined, tagged(tag('noparent'))), 200), watch, 500)).toEqual([]);
    });

    it('a write that fails rings nothing', async () => {
      expect(
        await changesOf(() => expectStatus(owner.client.post(`/projects/${projectId}/tasks`, { title: '' }, tagged(tag('bad'))), 400), watch, 500),
      ).toEqual([]);
    });
  });

  describe('projects', () => {
    it('never sends a change of another project, which its own stream gets', async () => {
      const clientId = tag('elsewhere');
      const seen = await changesOf(() => expectStatus(owner.client.post(`/projects/${otherProjectId}/tasks`, { title: 'Not yours' }, tagged(clientId)), 201), watch, 500);
      expect(seen).toEqual([]);
      const [there] = await otherWatch.waitFor((e) => e.event === 'change' && e.data?.clientId === clientId);
      expect(there.data).toStrictEqual({ projectId: otherProjectId, scope: 'board', clientId });
      expect(watch.events.some((e) => e.data?.projectId === otherProjectId)).toBe(false);
    });
  });

  describe('presence', () => {
    let task: CreatedTaskAnswer;
    let itemId: string;
    const presence = (c: Client, body: unknown, pid = projectId) => c.post(`/projects/${pid}/presence`, body);

    beforeAll(async () => {
      task = await newTask('Open in a tab');
      itemId = (await expectStatus(owner.client.post(`/tasks/${task.id}/checklist`, { text: 'Tick me' }), 201)).item.id;
    });

    it('broadcasts { projectId, kind, clientId, userId, taskId, field } as event: presence, never as a change', async () => {
      await sentinel(watch);
      const changesBefore = watch.changes().length;
      const cases: [unknown, unknown][] = [
        ['title', 'title'],
        ['description', 'description'],
        [`checklist:${itemId}`, `checklist:${itemId}`],
        [null, null],
      ];
      for (const [field, expected] of cases) {
        const clientId = tag('tab');
        const res = await presence(owner.client, { clientId, taskId: task.id, field });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ ok: true });
        const [seen] = await watch.waitFor((e) => e.event === 'presence' && e.data?.clientId === clientId);
        expect(seen.data).toStrictEqual({ projectId, kind: 'presence', clientId, userId: owner.user.id, taskId: task.id, field: expected });
      }
      const closing = tag('tab');
      expect((await presence(member.client, { clientId: closing, taskId: null, field: null })).body).toEqual({ ok: true });
      const [closed] = await watch.waitFor((e) => e.event === 'presence' && e.data?.clientId === closing);
      expect(closed.data).toStrictEqual({ projectId, kind: 'presence', clientId: closing, userId: member.user.id, taskId: null, field: null });
      await sleep(200);
      expect(watch.changes().length).toBe(changesBefore);
    });

    it('reaches only the subscribers of that project', async () => {
      const clientId = tag('tab');
      await expectStatus(presence(owner.client, { clientId, taskId: null, field: null }, otherProjectId), 200);
      await otherWatch.waitFor((e) => e.event === 'presence' && e.data?.clientId === clientId);
      await sleep(300);
      expect(watch.events.some((e) => e.data?.clientId === clientId)).toBe(false);
    });

    it('refuses a field that is not title, description, checklist:<id> or null, and a bad body', async () => {
      for (const field of ['body', 'checklist:', 'checklist:not-an-id', 'comments', 7, true]) {
        const res = await presence(owner.client, { clientId: tag('tab'), taskId: task.id, field });
        expect([res.status, field]).toEqual([400, field]);
        expect(typeof res.body.error).toBe('string');
      }
      expect((await presence(owner.client, { clientId: tag('tab'), taskId: 'nope', field: null })).body).toEqual({ error: 'That is not a task id.' });
      expect((await presence(owner.client, { taskId: task.id, field: null })).status).toBe(400);
    });

    it('is a person’s: an agent gets 403, a non-member 404, nobody 401', async () => {
      expect(await presence(agent.client, { clientId: 'bot', taskId: task.id, field: 'title' })).toMatchObject({ status: 403, body: { error: 'Only a person can do this.' } });
      expect(await presence(outsider.client, { clientId: 'x', taskId: task.id, field: 'title' })).toMatchObject({ status: 404, body: { error: 'Project not found.' } });
      expect(await presence(new Client(t.api), { clientId: 'x', taskId: task.id, field: 'title' })).toMatchObject({
        status: 401,
        body: { error: 'Sign in first, or send an agent token.' },
      });
    });
  });

  describe('pings', () => {
    it('sends a ping comment on the interval (every 25 s by default)', async () => {
      expect(PING_MS).toBe(25_000);
      expect(encode({ comment: 'ping' })).toBe(': ping\n\n');
      expect(encode({ retry: 3000 })).toBe('retry: 3000\n\n');
      const lines: string[] = [];
      const stop = t.app.get(StreamService).subscribe(projectId, 50)({ next: (bytes) => lines.push(bytes.toString()), complete: () => undefined });
      await sleep(300);
      stop();
      // Retry and ready in one write, or two with read replicas (ready waits for them, and the
      // lines meanwhile after it: docs/operating.md › Read replicas); the same bytes either way.
      const opening = encode({ retry: 3000 }) + encode({ event: 'ready', data: {} });
      expect(lines.join('').startsWith(opening)).toBe(true);
      const pings = lines.filter((l) => l.startsWith(':'));
      expect(pings.length).toBeGreaterThanOrEqual(2);
      expect(pings.every((p) => p === ': ping\n\n')).toBe(true);
      const count = lines.length;
      await sleep(150);
      expect(lines.length).toBe(count);
    });

  });

  describe('two instances on one database', () => {
    let b: TestApp;
    let ownerOnB: Client;

    beforeAll(async () => {
      b = await startTestApp({ databaseUrl: t.databaseUrl });
      apps.push(b);
      ownerOnB = new Client(b.api);
      ownerOnB.cookie = owner.client.cookie;
    });

    it('a write on A reaches a stream on B, and a write on B a stream on A', async () => {
      const onB = await open(b, projectId, { cookie: member.client.cookie });
      const fromA = tag('from-a');
      await expectStatus(owner.client.post(`/projects/${projectId}/tasks`, { title: 'Written on A' }, tagged(fromA)), 201);
      const [seenOnB] = await onB.waitFor((e) => e.event === 'change' && e.data?.clientId === fromA);
      expect(seenOnB.data).toStrictEqual({ projectId, scope: 'board', clientId: fromA });

      const fromB = tag('from-b');
      await expectStatus(ownerOnB.patch(`/tasks/${sentinelTask.id}`, { description: 'Written on B' }, tagged(fromB)), 200);
      const [seenOnA] = await watch.waitFor((e) => e.event === 'change' && e.data?.clientId === fromB);
      expect(seenOnA.data).toStrictEqual({ projectId, scope: 'task', taskId: sentinelTask.id, clientId: fromB });
      // And each instance's own subscribers still get it once.
      await onB.waitFor((e) => e.event === 'change' && e.data?.clientId === fromB);
      await sleep(200);
      expect(onB.events.filter((e) => e.data?.clientId === fromB)).toHaveLength(1);
      expect(watch.events.filter((e) => e.data?.clientId === fromA)).toHaveLength(1);
      onB.close();
    });

    it('presence sent to B reaches subscribers on A', async () => {
      const clientId = tag('tab-on-b');
      await expectStatus(ownerOnB.post(`/projects/${projectId}/presence`, { clientId, taskId: sentinelTask.id, field: 'description' }), 200);
      const [seen] = await watch.waitFor((e) => e.event === 'presence' && e.data?.clientId === clientId);
      expect(seen.data).toStrictEqual({ projectId, kind: 'presence', clientId, userId: owner.user.id, taskId: sentinelTask.id, field: 'description' });
    });
  });

  describe('the listener', () => {
    it('sends ready again to open streams after it reconnects, and later writes still arrive', async () => {
      const agentReader = await open(t, projectId, { token: agent.token });
      const readiesBefore = watch.events.filter((e) => e.event === 'ready').length;
      expect(readiesBefore).toBe(1);
      await t.app.get(PgNotificationListener).dropConnectionForTest();
      await watch.waitFor((e) => e.event === 'ready', 2, 10_000);
      await agentReader.waitFor((e) => e.event === 'ready', 2, 10_000);
      expect(watch.events.filter((e) => e.event === 'ready').at(-1)).toEqual({ event: 'ready', data: {} });
      const clientId = tag('after-reconnect');
      await expectStatus(owner.client.post(`/projects/${projectId}/tasks`, { title: 'After the cut' }, tagged(clientId)), 201);
      await watch.waitFor((e) => e.event === 'change' && e.data?.clientId === clientId);
      await agentReader.waitFor((e) => e.event === 'change' && e.data?.clientId === clientId);
      // A stream opened after the reconnect starts as usual and hears writes too.
      const fresh = await open(t, projectId, { cookie: owner.client.cookie });
      expect(fresh.events).toEqual([{ retry: 3000 }, { event: 'ready', data: {} }]);
      const again = tag('fresh');
      await expectStatus(owner.client.patch(`/tasks/${sentinelTask.id}`, { title: 'Heard' }, tagged(again)), 200);
      await fresh.waitFor((e) => e.event === 'change' && e.data?.clientId === again);
      // Only one extra ready: the reconnect did not duplicate the subscription.
      await sleep(200);
      expect(watch.events.filter((e) => e.event === 'ready')).toHaveLength(2);
      expect(watch.events.filter((e) => e.data?.clientId === clientId)).toHaveLength(1);
      agentReader.close();
      fresh.close();
    });
  });

  describe('shutdown', () => {
    it('ends open streams when the app closes, rather than hanging', async () => {
      const c = await startTestApp({ databaseUrl: t.databaseUrl });
      apps.push(c);
      const reader = await open(c, projectId, { cookie: owner.client.cookie });
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise<string>((r) => (timer = setTimeout(() => r('hung'), 10_000)));
      const outcome = await Promise.race([c.close().then(() => 'closed'), hung]);
      clearTimeout(timer);
      expect(outcome).toBe('closed');
      const deadline = Date.now() + 3000;
      while (!reader.closed && Date.now() < deadline) await sleep(20);
      expect(reader.closed).toBe(true);
      // A stream that starts while the app is shutting down ends at once too (it would hold the close).
      let completed = false;
      const stop = c.app.get(StreamService).subscribe(projectId, 50)({ next: () => undefined, complete: () => (completed = true) });
      await sleep(150);
      stop();
      expect(completed).toBe(true);
    });
  });
});
