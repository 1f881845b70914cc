import {
  assertCanDeleteComment, assertCanEditComment, CommentActor, commentDeletedData, commentEditOutcome, readCommentEdit,
  readNewCommentBody,
} from './comment';
import { refusal } from '../../../test/support/refusal';

const AUTHOR = 'author-id';
const OTHER = 'other-id';
const actor = (userId: string, role: CommentActor['role'], kind: CommentActor['kind'] = 'human'): CommentActor => ({ userId, role, kind });

describe('readNewCommentBody', () => {
  it('trims and keeps up to 8000 characters', () => {
    expect(readNewCommentBody('  Looks good  ')).toBe('Looks good');
    expect(readNewCommentBody('x'.repeat(8000))).toHaveLength(8000);
  });

  it('refuses with the Body messages', () => {
    for (const value of [undefined, null, '', '  ']) {
      const e = refusal(() => readNewCommentBody(value));
      expect(e.code).toBe('text.empty');
      expect(e.params).toEqual({ field: 'Body' });
    }
    expect(refusal(() => readNewCommentBody(42)).params).toEqual({ field: 'Body' });
    expect(refusal(() => readNewCommentBody(42)).code).toBe('text.not_text');
    const e = refusal(() => readNewCommentBody('x'.repeat(8001)));
    expect(e.code).toBe('text.too_long');
    expect(e.params).toEqual({ field: 'Body', max: 8000 });
  });
});

describe('readCommentEdit', () => {
  it('reads body and an optional base, both trimmed', () => {
    expect(readCommentEdit({ body: ' New ' })).toEqual({ body: 'New' });
    expect(readCommentEdit({ body: 'New', baseBody: ' Old ' })).toEqual({ body: 'New', baseBody: 'Old' });
    expect(readCommentEdit({ body: 'New', baseBody: null })).toEqual({ body: 'New' });
  });

  it('refuses an empty body with its own sentence', () => {
    for (const body of [undefined, null, '', '   ']) expect(refusal(() => readCommentEdit({ body })).code).toBe('comment.empty');
  });

  it('refuses a body that is too long or not text, and a base that is not text', () => {
    expect(refusal(() => readCommentEdit({ body: 'x'.repeat(8001) })).code).toBe('text.too_long');
    expect(refusal(() => readCommentEdit({ body: ['x'] })).code).toBe('text.not_text');
    const e = refusal(() => readCommentEdit({ body: 'x', baseBody: 3 }));
    expect(e.code).toBe('text.not_text');
    expect(e.params).toEqual({ field: 'BaseBody' });
  });
});

describe('assertCanEditComment', () => {
  it('lets the author edit, person or agent', () => {
    expect(() => assertCanEditComment(actor(AUTHOR, 'member'), { authorId: AUTHOR })).not.toThrow();
    expect(() => assertCanEditComment(actor(AUTHOR, 'member', 'agent'), { authorId: AUTHOR })).not.toThrow();
  });

  it('refuses everybody else, owner and admin included', () => {
    for (const role of ['owner', 'admin', 'member'] as const) {
      expect(refusal(() => assertCanEditComment(actor(OTHER, role), { authorId: AUTHOR })).code).toBe('comment.edit_own');
      expect(refusal(() => assertCanEditComment(actor(OTHER, role, 'agent'), { authorId: AUTHOR })).code).toBe('comment.edit_own');
    }
    expect(refusal(() => assertCanEditComment(actor(OTHER, 'owner'), { authorId: null })).code).toBe('comment.edit_own');
  });
});

describe('assertCanDeleteComment', () => {
  it("lets the author delete their own, not the project's", () => {
    expect(assertCanDeleteComment(actor(AUTHOR, 'member'), { authorId: AUTHOR })).toEqual({ byProject: false });
    expect(assertCanDeleteComment(actor(AUTHOR, 'member', 'agent'), { authorId: AUTHOR })).toEqual({ byProject: false });
  });

  it("lets a person who is owner or admin delete anybody's, also an authorless one", () => {
    expect(assertCanDeleteComment(actor(OTHER, 'owner'), { authorId: AUTHOR })).toEqual({ byProject: true });
    expect(assertCanDeleteComment(actor(OTHER, 'admin'), { authorId: AUTHOR })).toEqual({ byProject: true });
    expect(assertCanDeleteComment(actor(OTHER, 'admin'), { authorId: null })).toEqual({ byProject: true });
  });

  it("refuses a plain member and any agent deleting somebody else's", () => {
    expect(refusal(() => assertCanDeleteComment(actor(OTHER, 'member'), { authorId: AUTHOR })).code).toBe('comment.delete_own');
    // Agents are members by role; even a made-up managing role does not let an agent through.
    for (const role of ['owner', 'admin', 'member'] as const) {
      expect(refusal(() => assertCanDeleteComment(actor(OTHER, role, 'agent'), { authorId: AUTHOR })).code).toBe('comment.delete_own');
    }
    expect(refusal(() => assertCanDeleteComment(actor(OTHER, 'member'), { authorId: null })).code).toBe('comment.delete_own');
  });
});

describe('commentEditOutcome', () => {
  it('writes nothing for the same words, base or not', () => {
    expect(commentEditOutcome('Same', { body: 'Same' })).toBe('same');
    expect(commentEditOutcome('Same', { body: 'Same', baseBody: 'Older' })).toBe('same');
  });

  it('clashes when the saved words are not the base', () => {
    expect(commentEditOutcome('Theirs', { body: 'Mine', baseBody: 'Old' })).toBe('clash');
  });

  it('writes a change from the base, or any change without a base', () => {
    expect(commentEditOutcome('Old', { body: 'Mine', baseBody: 'Old' })).toBe('write');
    expect(commentEditOutcome('Theirs', { body: 'Mine' })).toBe('write');
  });
});

describe('commentDeletedData', () => {
  it('carries the author and byProject, never the words', () => {
    expect(commentDeletedData('c1', AUTHOR, true)).toEqual({ commentId: 'c1', action: 'deleted', authorId: AUTHOR, byProject: true });
  });
});
