import { randomUUID } from 'node:crypto';
import { CommentQuery, Database } from '@board/persistence';
import { ChangeListener, createTask, holdTransaction, listenChanges, within } from '../support/fixtures';
import { Agent, anAgent, aTeam } from '../support/builders';
import { deleteTask, readTask, taskFeed } from '../support/builders-a';
import { addMember, Client, createAgent, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

const CLASH = 'This changed while you typed.';
const EDIT_OWN = 'You can only edit your own comments.';
const DELETE_OWN = 'You can only delete your own comments.';
const EMPTY = 'A comment cannot be empty. Delete it instead.';
const COMMENT_NOT_FOUND = 'Comment not found.';
const TASK_NOT_FOUND = 'Task not found.';
const LONG_AGO = '2000-01-01T00:00:00Z';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('comment routes', () => {
  let t: TestApp;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let member2: Person;
  let outsider: Person;
  let agent: Agent;
  let agent2: Agent;
  let projectId: string;
  let changes: ChangeListener;

  // Read off the project's feed: a line stored under another project would not show.
  const feed = (taskId: string) => taskFeed(owner.client, projectId, taskId, 'comment');
  const comments = async (taskId: string) => (await readTask(owner.client, taskId)).comments;
  /** The comment as the task read shows it, or undefined when it is gone. */
  const commentOf = async (taskId: string, id: string) => (await comments(taskId)).find((c) => c.id === id);
  const updatedAt = async (taskId: string): Promise<Date> => new Date((await readTask(owner.client, taskId)).updatedAt);
  // A forced clock: the API never writes an updated_at in the past, so only storage can age a task.
  const ageTask = (taskId: string) => t.sql.query('UPDATE tasks SET updated_at = $2 WHERE id = $1', [taskId, LONG_AGO]);
  // Storage itself: once its task is deleted no route shows a comment, yet it must be kept for a restore.
  const storedBody = async (id: string) => (await t.sql.query('SELECT body FROM comments WHERE id = $1', [id])).rows[0]?.body;
  /** A new task of the project, made through the API; its create notice is taken so tests count only their own. */
  async function newTask(): Promise<string> {
    const task = await createTask(owner.client, projectId, 'A task');
    await changes.waitFor((n) => n.projectId === projectId);
    await changes.take();
    return task.id;
  }
  const authorOf = (p: { id: string; name: string; color: string; emoji: string | null }) => ({ id: p.id, name: p.name, color: p.color, emoji: p.emoji });
  const queries = () => t.app.get(CommentQuery, { strict: false });

  async function addComment(taskId: string, body: string, as: Client = owner.client) {
    const res = await as.post(`/tasks/${taskId}/comments`, { body });
    expect(res.status).toBe(201);
    return res.body.comment;
  }

  beforeAll(async () => {
    t = await startTestApp();
    const team = await aTeam(t, { name: 'Comments', key: 'COM' });
    ({ owner, member, outsider, agent } = team);
    projectId = team.project.id;
    admin = await registerPerson(t, 'Ada');
    member2 = await registerPerson(t, 'Mara');
    await addMember(owner.client, projectId, admin, 'admin');
    await addMember(owner.client, projectId, member2);
    agent2 = await anAgent(owner.client, projectId, 'Otto');
    changes = await listenChanges(t.databaseUrl);
  });
  afterAll(async () => {
    await changes.close();
    await t.close();
  });
  beforeEach(() => changes.take());

  describe('POST /api/tasks/:taskId/comments', () => {
    it('answers 201 { comment } with the trimmed body and its author, writes a comment line, the task time and a notice', async () => {
      const taskId = await newTask();
      await ageTask(taskId);
      const res = await member.client.post(`/tasks/${taskId}/comments`, { body: '  Looks good to me  ' }, { headers: { 'x-service-client': 'tab-9' } });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        comment: {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          taskId,
          authorId: member.user.id,
          body: 'Looks good to me',
          createdAt: expect.stringMatching(ISO),
          editedAt: null,
          author: authorOf(member.user),
        },
      });
      const comment = res.body.comment;
      expect(await feed(taskId)).toEqual([{ kind: 'comment', data: { commentId: comment.id }, actorId: member.user.id, taskId }]);
      expect((await updatedAt(taskId)).getTime()).toBeGreaterThan(new Date(LONG_AGO).getTime());
      expect(await changes.take()).toEqual([{ projectId, scope: 'task', taskId, clientId: 'tab-9' }]);
    });

    it('lets an agent comment as itself', async () => {
      const taskId = await newTask();
      const comment = await addComment(taskId, 'Done on my side.', agent.client);
      expect(comment.authorId).toBe(agent.agent.id);
      expect(comment.author).toEqual(authorOf(agent.agent));
      expect((await feed(taskId))[0]).toMatchObject({ data: { commentId: comment.id }, actorId: agent.agent.id });
    });

    it('refuses a missing, empty, non-text or too long body with the Body messages and writes nothing', async () => {
      const taskId = await newTask();
      const cases: [unknown, string][] = [
        [{}, 'Body cannot be empty.'],
        [{ body: null }, 'Body cannot be empty.'],
        [{ body: '' }, 'Body cannot be empty.'],
        [{ body: ' \n ' }, 'Body cannot be empty.'],
        [{ body: 12 }, 'Body must be text.'],
        [{ body: { text: 'x' } }, 'Body must be text.'],
        [{ body: 'x'.repeat(8001) }, 'Body is too long (max 8000 characters).'],
        ['a string', 'The request body must be JSON.'],
      ];
      for (const [body, error] of cases) {
        const res = await owner.client.post(`/tasks/${taskId}/comments`, body);
        expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 400, answer: { error } });
      }
      expect(await comments(taskId)).toEqual([]);
      expect(await feed(taskId)).toEqual([]);
      expect(await changes.take()).toEqual([]);
    });

    it('holds the task, not the project: a comment lands while the project lock is held elsewhere', async () => {
      const taskId = await newTask();
      const hold = await holdTransaction(t.app.get(Database), undefined, { lockProject: projectId });
      // Bounded: a comment that waited for the project lock would answer only after the release.
      const answer = await within(owner.client.post(`/tasks/${taskId}/comments`, { body: 'Not waiting' }));
      await hold.release();
      expect(answer?.status).toBe(201);
    });

    it('finds no task when a delete holding the task’s row commits first, and writes nothing', async () => {
      const taskId = await newTask();
      const db = t.app.get(Database);
      // A race: the delete must hold the task's row open while the comment arrives, which no route can do.
      const deleting = await holdTransaction(db, () => db.query('UPDATE tasks SET deleted_at = now() WHERE project_id = $1 AND id = $2', [projectId, taskId]));
      const pending = owner.client.post(`/tasks/${taskId}/comments`, { body: 'Too late' });
      await new Promise((r) => setTimeout(r, 300));
      await deleting.release();
      const res = await pending;
      expect(res.status).toBe(404);
      // A race, and the task is deleted now: only storage can show that no comment landed.
      expect((await t.sql.query('SELECT count(*)::int AS n FROM comments WHERE task_id = $1', [taskId])).rows[0].n).toBe(0);
      expect(await feed(taskId)).toEqual([]);
    });

    it('takes exactly 8000 characters', async () => {
      const taskId = await newTask();
      expect((await addComment(taskId, 'y'.repeat(8000))).body).toHaveLength(8000);
    });
  });

  describe('PATCH /api/comments/:commentId', () => {
    it('lets the author change the words: editedAt set, createdAt and place kept, one edited line, a notice', async () => {
      const taskId = await newTask();
      const first = await addComment(taskId, 'First', member.client);
      const second = await addComment(taskId, 'Second', owner.client);
      await changes.take();
      await ageTask(taskId);
      const res = await member.client.patch(`/comments/${first.id}`, { body: '  First, corrected  ' }, { headers: { 'x-service-client': 'tab-3' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ comment: { ...first, body: 'First, corrected', editedAt: expect.stringMatching(ISO) } });
      expect(res.body.comment.createdAt).toBe(first.createdAt);
      const row = await commentOf(taskId, first.id);
      expect(row?.body).toBe('First, corrected');
      expect(row?.editedAt).not.toBeNull();
      expect(row?.createdAt).toBe(first.createdAt);
      expect((await feed(taskId)).slice(2)).toEqual([
        { kind: 'comment', data: { commentId: first.id, action: 'edited' }, actorId: member.user.id, taskId },
      ]);
      expect((await updatedAt(taskId)).getTime()).toBeGreaterThan(new Date(LONG_AGO).getTime());
      expect(await changes.take()).toEqual([{ projectId, scope: 'task', taskId, clientId: 'tab-3' }]);
      expect((await comments(taskId)).map((c) => c.id)).toEqual([first.id, second.id]);
    });

    it('writes nothing for the same words: no editedAt, no line, no notice, no task time', async () => {
      const taskId = await newTask();
      const comment = await addComment(taskId, 'Same words', member.client);
      await changes.take();
      await ageTask(taskId);
      for (const body of [{ body: 'Same words' }, { body: '  Same words ' }, { body: 'Same words', baseBody: 'Older words' }]) {
        const res = await member.client.patch(`/comments/${comment.id}`, body);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ comment });
      }
      expect((await commentOf(taskId, comment.id))?.editedAt).toBeNull();
      expect((await feed(taskId)).length).toBe(1);
      expect((await updatedAt(taskId)).toISOString()).toBe(new Date(LONG_AGO).toISOString());
      expect(await changes.take()).toEqual([]);
    });

    it('lets an agent edit its own comment', async () => {
      const taskId = await newTask();
      const comment = await addComment(taskId, 'Working on it', agent.client);
      const res = await agent.client.patch(`/comments/${comment.id}`, { body: 'Finished' });
      expect(res.status).toBe(200);
      expect(res.body.comment).toMatchObject({ body: 'Finished', authorId: agent.agent.id, author: authorOf(agent.agent) });
      expect((await feed(taskId)).at(-1)).toMatchObject({ data: { commentId: comment.id, action: 'edited' }, actorId: agent.agent.id });
    });

    it('refuses everybody but the author, owner and admin included, people and agents alike', async () => {
      const taskId = await newTask();
      const byMember = await addComment(taskId, 'Mine', member.client);
      const byAgent = await addComment(taskId, 'Agent words', agent.client);
      await changes.take();
      const attempts: [Client, any][] = [
        [owner.client, byMember], [admin.client, byMember], [member2.client, byMember], [agent.client, byMember],
        [owner.client, byAgent], [admin.client, byAgent], [member.client, byAgent], [agent2.client, byAgent],
      ];
      for (const [as, comment] of attempts) {
        const res = await as.patch(`/comments/${comment.id}`, { body: 'Overwritten' });
        expect([res.status, res.body]).toEqual([403, { error: EDIT_OWN }]);
      }
      // The author check comes first, even before an empty body.
      const empty = await owner.client.patch(`/comments/${byMember.id}`, { body: '' });
      expect([empty.status, empty.body]).toEqual([403, { error: EDIT_OWN }]);
      expect((await commentOf(taskId, byMember.id))?.body).toBe('Mine');
      expect((await commentOf(taskId, byAgent.id))?.body).toBe('Agent words');
      expect((await feed(taskId)).length).toBe(2);
      expect(await changes.take()).toEqual([]);
    });

    it('refuses an empty body with its own sentence, and a long or non-text body with the Body messages', async () => {
      const taskId = await newTask();
      const comment = await addComment(taskId, 'Keep me', member.client);
      const cases: [unknown, number, string][] = [
        [{ body: '' }, 400, EMPTY],
        [{ body: '   ' }, 400, EMPTY],
        [{ body: null }, 400, EMPTY],
        [{}, 400, EMPTY],
        [{ body: 5 }, 400, 'Body must be text.'],
        [{ body: 'x'.repeat(8001) }, 400, 'Body is too long (max 8000 characters).'],
        [{ body: 'ok', baseBody: 5 }, 400, 'BaseBody must be text.'],
      ];
      for (const [body, status, error] of cases) {
        const res = await member.client.patch(`/comments/${comment.id}`, body);
        expect({ body, status: res.status, answer: res.body }).toEqual({ body, status, answer: { error } });
      }
      expect(await commentOf(taskId, comment.id)).toMatchObject({ body: 'Keep me', editedAt: null });
    });

    it('writes when the saved words still are the base', async () => {
      const taskId = await newTask();
      const comment = await addComment(taskId, 'Base', member.client);
      const res = await member.client.patch(`/comments/${comment.id}`, { body: 'Mine', baseBody: 'Base' });
      expect(res.status).toBe(200);
      expect(res.body.comment.body).toBe('Mine');
    });

    it('on a clash answers 409 { error, field: body, current } and writes nothing', async () => {
      const taskId = await newTask();
      const comment = await addComment(taskId, 'Base', member.client);
      // The author changed it from another tab.
      await member.client.patch(`/comments/${comment.id}`, { body: 'Other tab' });
      const editedAt = (await commentOf(taskId, comment.id))?.editedAt;
      expect(editedAt).toEqual(expect.stringMatching(ISO));
      await changes.take();
      await ageTask(taskId);
      const res = await member.client.patch(`/comments/${comment.id}`, { body: 'This tab', baseBody: 'Base' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: CLASH, field: 'body', current: 'Other tab' });
      expect(await commentOf(taskId, comment.id)).toMatchObject({ body: 'Other tab', editedAt });
      expect((await feed(taskId)).map((l) => l.data.action)).toEqual([undefined, 'edited']);
      expect((await updatedAt(taskId)).toISOString()).toBe(new Date(LONG_AGO).toISOString());
      expect(await changes.take()).toEqual([]);
    });

    it('lets only one of two tabs from the same base through', async () => {
      const taskId = await newTask();
      const comment = await addComment(taskId, 'Base', member.client);
      const answers = await Promise.all([
        member.client.patch(`/comments/${comment.id}`, { body: 'Tab one', baseBody: 'Base' }),
        member.client.patch(`/comments/${comment.id}`, { body: 'Tab two', baseBody: 'Base' }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const winner = answers.find((a) => a.status === 200)!.body.comment.body;
      expect(answers.find((a) => a.status === 409)!.body).toEqual({ error: CLASH, field: 'body', current: winner });
      expect((await feed(taskId)).filter((l) => l.data.action === 'edited')).toHaveLength(1);
    });
  });

  describe('DELETE /api/comments/:commentId', () => {
    it("lets the author delete their own, with a deleted line that carries the author and never the words", async () => {
      const taskId = await newTask();
      const comment = await addComment(taskId, 'Secret words', member.client);
      await changes.take();
      await ageTask(taskId);
      const res = await member.client.delete(`/comments/${comment.id}`, undefined, { headers: { 'x-service-client': 'tab-4' } });
      expect([res.status, res.body]).toEqual([200, { ok: true }]);
      expect(await commentOf(taskId, comment.id)).toBeUndefined();
      const line = (await feed(taskId)).at(-1);
      expect(line).toEqual({
        kind: 'comment',
        data: { commentId: comment.id, action: 'deleted', authorId: member.user.id, byProject: false },
        actorId: member.user.id,
        taskId,
      });
      expect(JSON.stringify(line?.data)).not.toContain('Secret');
      expect((await updatedAt(taskId)).getTime()).toBeGreaterThan(new Date(LONG_AGO).getTime());
      expect(await changes.take()).toEqual([{ projectId, scope: 'task', taskId, clientId: 'tab-4' }]);
      const again = await member.client.delete(`/comments/${comment.id}`);
      expect([again.status, again.body]).toEqual([404, { error: COMMENT_NOT_FOUND }]);
    });

    it("lets a person who is owner or admin delete anybody's, marked byProject", async () => {
      const taskId = await newTask();
      const byMember = await addComment(taskId, 'Member words', member.client);
      const byAgent = await addComment(taskId, 'Agent words', agent.client);
      const byOwner = await addComment(taskId, 'Owner words', owner.client);
      expect((await owner.client.delete(`/comments/${byMember.id}`)).status).toBe(200);
      expect((await admin.client.delete(`/comments/${byAgent.id}`)).status).toBe(200);
      expect((await admin.client.delete(`/comments/${byOwner.id}`)).status).toBe(200);
      const deletes = (await feed(taskId)).filter((l) => l.data.action === 'deleted');
      expect(deletes.map((l) => [l.data, l.actorId])).toEqual([
        [{ commentId: byMember.id, action: 'deleted', authorId: member.user.id, byProject: true }, owner.user.id],
        [{ commentId: byAgent.id, action: 'deleted', authorId: agent.agent.id, byProject: true }, admin.user.id],
        [{ commentId: byOwner.id, action: 'deleted', authorId: owner.user.id, byProject: true }, admin.user.id],
      ]);
    });

    it("lets an agent delete its own only, and a plain member only their own", async () => {
      const taskId = await newTask();
      const byMember = await addComment(taskId, 'Member words', member.client);
      const byOwner = await addComment(taskId, 'Owner words', owner.client);
      const byAgent = await addComment(taskId, 'Agent words', agent.client);
      await changes.take();
      const refused: [Client, any][] = [
        [agent.client, byMember], [agent.client, byOwner], [agent2.client, byAgent], [member2.client, byMember], [member.client, byOwner],
        [member.client, byAgent],
      ];
      for (const [as, comment] of refused) {
        const res = await as.delete(`/comments/${comment.id}`);
        expect([res.status, res.body]).toEqual([403, { error: DELETE_OWN }]);
      }
      expect((await feed(taskId)).length).toBe(3);
      expect(await changes.take()).toEqual([]);
      const own = await agent.client.delete(`/comments/${byAgent.id}`);
      expect([own.status, own.body]).toEqual([200, { ok: true }]);
      expect((await feed(taskId)).at(-1)).toMatchObject({
        data: { commentId: byAgent.id, action: 'deleted', authorId: agent.agent.id, byProject: false },
        actorId: agent.agent.id,
      });
      expect(await commentOf(taskId, byMember.id)).toBeDefined();
      expect(await commentOf(taskId, byOwner.id)).toBeDefined();
    });

    it('keeps a comment whose author is gone: author null, nobody can edit it, a managing person can delete it', async () => {
      const taskId = await newTask();
      const temp = await createAgent(owner.client, projectId, 'Temp');
      const comment = await addComment(taskId, 'Left behind', temp.client);
      // Storage itself: no route deletes a user row (an agent removed keeps its authorship).
      await t.sql.query('DELETE FROM users WHERE id = $1', [temp.agent.id]);
      expect(await comments(taskId)).toEqual([expect.objectContaining({ id: comment.id, authorId: null, author: null, body: 'Left behind' })]);
      const edit = await owner.client.patch(`/comments/${comment.id}`, { body: 'x' });
      expect([edit.status, edit.body]).toEqual([403, { error: EDIT_OWN }]);
      const byMember = await member.client.delete(`/comments/${comment.id}`);
      expect([byMember.status, byMember.body]).toEqual([403, { error: DELETE_OWN }]);
      expect((await admin.client.delete(`/comments/${comment.id}`)).status).toBe(200);
      expect((await feed(taskId)).at(-1)!.data).toEqual({ commentId: comment.id, action: 'deleted', authorId: null, byProject: true });
    });
  });

  describe('who may call', () => {
    it('answers 400 for ids that are not ids and 404 for unknown ones', async () => {
      const bad = await owner.client.post('/tasks/123/comments', { body: 'x' });
      expect([bad.status, bad.body]).toEqual([400, { error: 'That is not a task id.' }]);
      const badPatch = await owner.client.patch('/comments/123', { body: 'x' });
      expect([badPatch.status, badPatch.body]).toEqual([400, { error: 'That is not a comment id.' }]);
      const badDelete = await owner.client.delete('/comments/123');
      expect([badDelete.status, badDelete.body]).toEqual([400, { error: 'That is not a comment id.' }]);
      const unknownTask = await owner.client.post(`/tasks/${randomUUID()}/comments`, { body: 'x' });
      expect([unknownTask.status, unknownTask.body]).toEqual([404, { error: TASK_NOT_FOUND }]);
      const unknownPatch = await owner.client.patch(`/comments/${randomUUID()}`, { body: 'x' });
      expect([unknownPatch.status, unknownPatch.body]).toEqual([404, { error: COMMENT_NOT_FOUND }]);
      const unknownDelete = await owner.client.delete(`/comments/${randomUUID()}`);
      expect([unknownDelete.status, unknownDelete.body]).toEqual([404, { error: COMMENT_NOT_FOUND }]);
    });

    it('refuses a caller without credentials', async () => {
      const taskId = await newTask();
      const comment = await addComment(taskId, 'Hello');
      const anon = new Client(t.api);
      for (const res of [
        await anon.post(`/tasks/${taskId}/comments`, { body: 'x' }),
        await anon.patch(`/comments/${comment.id}`, { body: 'x' }),
        await anon.delete(`/comments/${comment.id}`),
      ]) {
        expect([res.status, res.body]).toEqual([401, { error: 'Sign in first, or send an agent token.' }]);
      }
    });

    it('answers 404 to a non-member, and writes nothing', async () => {
      const taskId = await newTask();
      const comment = await addComment(taskId, 'Private');
      const add = await outsider.client.post(`/tasks/${taskId}/comments`, { body: 'x' });
      expect([add.status, add.body]).toEqual([404, { error: TASK_NOT_FOUND }]);
      const patch = await outsider.client.patch(`/comments/${comment.id}`, { body: 'x' });
      expect([patch.status, patch.body]).toEqual([404, { error: COMMENT_NOT_FOUND }]);
      const del = await outsider.client.delete(`/comments/${comment.id}`);
      expect([del.status, del.body]).toEqual([404, { error: COMMENT_NOT_FOUND }]);
      expect((await commentOf(taskId, comment.id))?.body).toBe('Private');
      expect((await feed(taskId)).length).toBe(1);
    });

    it('answers 404 on every route once the task is deleted', async () => {
      const taskId = await newTask();
      const comment = await addComment(taskId, 'Gone with it', member.client);
      await deleteTask(owner.client, taskId);
      await changes.waitFor((n) => n.projectId === projectId);
      await changes.take();
      const add = await member.client.post(`/tasks/${taskId}/comments`, { body: 'x' });
      expect([add.status, add.body]).toEqual([404, { error: TASK_NOT_FOUND }]);
      const patch = await member.client.patch(`/comments/${comment.id}`, { body: 'x' });
      expect([patch.status, patch.body]).toEqual([404, { error: COMMENT_NOT_FOUND }]);
      const del = await owner.client.delete(`/comments/${comment.id}`);
      expect([del.status, del.body]).toEqual([404, { error: COMMENT_NOT_FOUND }]);
      expect(await storedBody(comment.id)).toBe('Gone with it');
      expect((await feed(taskId)).length).toBe(1);
      expect(await changes.take()).toEqual([]);
    });
  });

  describe('CommentQuery.onTask', () => {
    it('reads comments oldest first, each with its author', async () => {
      const taskId = await newTask();
      const a = await addComment(taskId, 'One', owner.client);
      const b = await addComment(taskId, 'Two', agent.client);
      const c = await addComment(taskId, 'Three', member.client);
      await owner.client.patch(`/comments/${a.id}`, { body: 'One, edited' });
      const read = await queries().onTask(projectId, taskId);
      expect(JSON.parse(JSON.stringify(read))).toEqual([
        { ...a, body: 'One, edited', editedAt: expect.stringMatching(ISO) },
        b,
        c,
      ]);
      expect(read[0].createdAt).toBeInstanceOf(Date);
    });
  });
});
