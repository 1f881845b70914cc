import { useState } from 'react';
import { ApiError, del, errorText, patch, post } from '../api/client';
import type { Board, Comment, FullTask, User } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';
import { Markdown } from '../ui/Markdown';
import { Avatar } from '../ui/Avatar';

export function Comments({ task, me, board, onChanged }: { task: FullTask; me: User; board: Board; onChanged: () => Promise<void> }) {
  const [body, setBody] = useState('');
  const act = useAction();
  const admin = board.project.role === 'owner' || board.project.role === 'admin';
  return (
    <section aria-labelledby="comments-h" className="comments">
      <h3 id="comments-h">Comments <span className="muted">{task.comments.length}</span></h3>
      <ol>
        {task.comments.map((c) => <CommentItem key={c.id} comment={c} mine={c.authorId === me.id} canDelete={c.authorId === me.id || admin} onChanged={onChanged} />)}
      </ol>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!body.trim()) return;
          void act.run(async () => { await post(`/tasks/${task.id}/comments`, { body }); setBody(''); await onChanged(); });
        }}
      >
        <label htmlFor="comment-new">Write a comment (markdown)</label>
        <textarea id="comment-new" rows={3} maxLength={8000} value={body} onChange={(e) => setBody(e.target.value)} />
        <button type="submit">Comment</button>
      </form>
      <ErrorLine error={act.error} />
    </section>
  );
}

function CommentItem({ comment, mine, canDelete, onChanged }: { comment: Comment; mine: boolean; canDelete: boolean; onChanged: () => Promise<void> }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [clash, setClash] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = async (base: string | null) => {
    setError(null);
    try {
      await patch(`/comments/${comment.id}`, base === null ? { body: draft } : { body: draft, baseBody: base });
      setDraft(null);
      setClash(null);
      await onChanged();
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && typeof e.body.current === 'string') setClash(e.body.current);
      else setError(errorText(e));
    }
  };
  return (
    <li className="comment">
      <div className="comment-head">
        <Avatar person={comment.author} size={20} />
        <strong>{comment.author?.name ?? 'Someone who left'}</strong>
        <time className="muted" dateTime={comment.createdAt}>{new Date(comment.createdAt).toLocaleString()}</time>
        {comment.editedAt && <span className="muted">(edited)</span>}
      </div>
      {draft === null ? (
        <Markdown text={comment.body} />
      ) : (
        <form onSubmit={(e) => { e.preventDefault(); void save(comment.body); }}>
          <label className="sr-only" htmlFor={`cm-${comment.id}`}>Edit comment</label>
          <textarea id={`cm-${comment.id}`} rows={3} value={draft} onChange={(e) => setDraft(e.target.value)} />
          <button type="submit">Save comment</button>
          <button type="button" onClick={() => setDraft(null)}>Cancel</button>
        </form>
      )}
      {clash !== null && (
        <div className="clash" role="alert">
          <p><strong>This changed while you typed.</strong> Saved now:</p>
          <blockquote>{clash}</blockquote>
          <button type="button" onClick={() => { setDraft(clash); setClash(null); }}>Use the saved text</button>
          <button type="button" onClick={() => void save(null)}>Keep mine</button>
        </div>
      )}
      <div className="row-actions">
        {mine && draft === null && <button type="button" className="link" onClick={() => setDraft(comment.body)}>Edit</button>}
        {canDelete && <button type="button" className="link danger" onClick={() => void del(`/comments/${comment.id}`).then(onChanged, (e) => setError(errorText(e)))}>Delete</button>}
      </div>
      <ErrorLine error={error} />
    </li>
  );
}
