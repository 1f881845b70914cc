import { feedLine, notice, said, WriteEvent } from '@board/kernel';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { InMemoryCommentQuery } from '../../../../test/support/in-memory/comment-query';
import { InMemoryCommentRepository } from '../../../../test/support/in-memory/comment-repository';
import { RecordingUnitOfWork } from '../../../../test/support/recording-unit-of-work';
import { refusalCode } from '../../../../test/support/refusal-code';
import type { ProjectCaller } from '../auth/auth-context';
import type { RunsService } from '../runs/runs.service';
import { CommentsService } from './comments.service';

// Typed fakes stand for the read model and the runs service: their modules are not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));
jest.mock('../runs/runs.service', () => ({ RunsService: class {} }));

const PROJECT = '00000000-0000-4000-8000-000000000001';
const TASK = '00000000-0000-4000-8000-0000000000a1';
const GONE_TASK = '00000000-0000-4000-8000-0000000000a2';
const caller = (userId: string, role: ProjectCaller['role'] = 'member', kind: ProjectCaller['kind'] = 'human'): ProjectCaller => ({
  userId, kind, name: userId, role, projectId: PROJECT, clientId: 'tab-1',
});
const ANN = caller('ann');
const BEN = caller('ben');
const OWNER = caller('olga', 'owner');
const AGENT = caller('bot', 'admin', 'agent');

const line = (actorId: string, data: Record<string, unknown>): WriteEvent => feedLine({ projectId: PROJECT, taskId: TASK, actorId, kind: 'comment', data });
const ring = notice({ projectId: PROJECT, scope: 'task', taskId: TASK, clientId: 'tab-1' });
/** The comment's words as notifications read them (mentions): the text, and before an edit what it said. */
const words = (actorId: string, text: string, before: string | null = null): WriteEvent => said({ kind: 'comment', projectId: PROJECT, taskId: TASK, actorId, text, before });

function setUp() {
  const store = new InMemoryCommentRepository();
  store.liveTasks.add(`${PROJECT}:${TASK}`);
  const uow = new RecordingUnitOfWork();
  const clock = new SteppedClock();
  // A person's comment may answer a waiting run: its events join the comment's.
  const answered: string[] = [];
  const runRing = notice({ projectId: PROJECT, scope: 'board', clientId: null });
  const runs: Pick<RunsService, 'answeredInComment'> = {
    answeredInComment: async (_projectId, taskId, person) => {
      answered.push(`${taskId}:${person.id}`);
      return [runRing];
    },
  };
  const service = new CommentsService(store, new InMemoryCommentQuery(store), uow, clock, runs as RunsService);
  return { store, uow, clock, service, answered, runRing };
}

describe('CommentsService', () => {
  it('adds a comment: its line, the task’s ring and, for a person, what a waiting run answers', async () => {
    const { store, uow, clock, service, answered, runRing } = setUp();
    const { comment } = await service.add(ANN, TASK, { body: 'Looks good' });
    expect(comment).toMatchObject({ taskId: TASK, authorId: 'ann', body: 'Looks good' });
    expect(uow.events).toEqual([line('ann', { commentId: comment.id }), ring, words('ann', 'Looks good'), runRing]);
    expect(answered).toEqual([`${TASK}:ann`]);
    expect(store.touched).toEqual([{ projectId: PROJECT, taskId: TASK, at: clock.now() }]);
    // The task's row lock, not the project's: no project lock is asked for.
    expect(uow.writes.map((w) => w.options)).toEqual([undefined]);
  });

  it('asks no run about an agent’s comment', async () => {
    const { uow, service, answered } = setUp();
    const { comment } = await service.add(AGENT, TASK, { body: 'Done on my side.' });
    expect(uow.events).toEqual([line('bot', { commentId: comment.id }), ring, words('bot', 'Done on my side.')]);
    expect(answered).toEqual([]);
  });

  it('refuses a comment on a task that is not live, and declares nothing', async () => {
    const { uow, service } = setUp();
    expect(await refusalCode(service.add(ANN, GONE_TASK, { body: 'Too late' }))).toBe('task.not_found');
    expect(uow.events).toEqual([]);
  });

  it('edits the author’s own words under the project lock, with an `edited` line', async () => {
    const { uow, clock, service } = setUp();
    const { comment } = await service.add(ANN, TASK, { body: 'First' });
    uow.clear();
    const edited = await service.edit(ANN, comment.id, { body: 'Second' });
    expect(edited.comment).toMatchObject({ body: 'Second', editedAt: clock.now() });
    expect(uow.events).toEqual([line('ann', { commentId: comment.id, action: 'edited' }), ring, words('ann', 'Second', 'First')]);
    expect(uow.writes.map((w) => w.options)).toEqual([{ lockProject: PROJECT }]);
  });

  it('writes and rings nothing for the same words, and refuses words changed since the base', async () => {
    const { uow, service } = setUp();
    const { comment } = await service.add(ANN, TASK, { body: 'Saved' });
    uow.clear();
    expect((await service.edit(ANN, comment.id, { body: 'Saved' })).comment.editedAt).toBeNull();
    expect(await refusalCode(service.edit(ANN, comment.id, { body: 'Mine', baseBody: 'Older' }))).toBe('task.clash');
    expect(uow.events).toEqual([]);
  });

  it('lets only the author edit, in the gate before the body and again in the write', async () => {
    const { store, service } = setUp();
    const { comment } = await service.add(ANN, TASK, { body: 'Ann’s' });
    for (const other of [BEN, OWNER, AGENT]) {
      expect(await refusalCode(service.checkEditable({ userId: other.userId, kind: other.kind, role: other.role }, PROJECT, comment.id))).toBe('comment.edit_own');
      expect(await refusalCode(service.edit(other, comment.id, { body: 'Overwritten' }))).toBe('comment.edit_own');
    }
    await expect(service.checkEditable({ userId: 'ann', kind: 'human', role: 'member' }, PROJECT, comment.id)).resolves.toBeUndefined();
    expect(await refusalCode(service.checkEditable({ userId: 'ann', kind: 'human', role: 'member' }, PROJECT, GONE_TASK))).toBe('comment.not_found');
    expect(store.comments.get(comment.id)?.body).toBe('Ann’s');
  });

  it('deletes: the author’s own, or anybody’s by an owner (byProject), never by another member or an agent', async () => {
    const { uow, service } = setUp();
    const mine = (await service.add(ANN, TASK, { body: 'Mine' })).comment;
    const hers = (await service.add(ANN, TASK, { body: 'Hers' })).comment;
    uow.clear();
    expect(await refusalCode(service.remove(BEN, mine.id))).toBe('comment.delete_own');
    expect(await refusalCode(service.remove(AGENT, mine.id))).toBe('comment.delete_own');
    await service.remove(ANN, mine.id);
    await service.remove(OWNER, hers.id);
    expect(uow.events).toEqual([
      line('ann', { commentId: mine.id, action: 'deleted', authorId: 'ann', byProject: false }),
      ring,
      line('olga', { commentId: hers.id, action: 'deleted', authorId: 'ann', byProject: true }),
      ring,
    ]);
    expect(await refusalCode(service.remove(ANN, mine.id))).toBe('comment.not_found');
  });
});
