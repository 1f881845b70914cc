import { useState } from 'react';
import { ApiError, del, errorText, patch, post } from '../api/client';
import type { ChecklistItem, FullTask } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';
import { announcePresence } from '../board/live';
import { useLocal } from './PropertyEditor';

export function Checklist({ task, pid, onChanged }: { task: FullTask; pid: string; onChanged: () => Promise<void> }) {
  const [text, setText] = useState('');
  const act = useAction();
  const done = task.checklist.filter((i) => i.done).length;
  return (
    <section aria-labelledby="checklist-h" className="checklist">
      <h3 id="checklist-h">Checklist <span className="muted">{done}/{task.checklist.length}</span></h3>
      {task.checklist.length > 0 && <progress max={task.checklist.length} value={done} aria-label={`${done} of ${task.checklist.length} done`} />}
      <ul>
        {task.checklist.map((item) => <Item taskId={task.id} key={item.id} item={item} pid={pid} onChanged={onChanged} />)}
      </ul>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!text.trim()) return;
          void act.run(async () => { await post(`/tasks/${task.id}/checklist`, { text }); setText(''); await onChanged(); });
        }}
      >
        <label className="sr-only" htmlFor="checklist-new">New checklist item</label>
        <input id="checklist-new" placeholder="Add an item" maxLength={400} value={text} onChange={(e) => setText(e.target.value)} />
        <button type="submit">Add item</button>
      </form>
      <ErrorLine error={act.error} />
    </section>
  );
}

function Item({ item, taskId, pid, onChanged }: { item: ChecklistItem; taskId: string; pid: string; onChanged: () => Promise<void> }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [clash, setClash] = useState<string | null>(null);
  const [done, setDone] = useLocal(item.done);
  const call = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
      await onChanged();
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && typeof e.body.current === 'string') setClash(e.body.current);
      else setError(errorText(e));
    }
  };
  return (
    <li className="check-item">
      <input type="checkbox" checked={done} aria-label={`Done: ${item.text}`} onChange={(e) => { setDone(e.target.checked); void call(() => patch(`/checklist/${item.id}`, { done: e.target.checked })); }} />
      {draft === null ? (
        <button type="button" className="link item-text" onClick={() => { setDraft(item.text); announcePresence(pid, taskId, `checklist:${item.id}`); }}>
          {item.done ? <s>{item.text}</s> : item.text}
        </button>
      ) : (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void call(async () => { await patch(`/checklist/${item.id}`, { text: draft, baseText: item.text }); setDraft(null); announcePresence(pid, taskId, null); });
          }}
        >
          <label className="sr-only" htmlFor={`ci-${item.id}`}>Item text</label>
          <input id={`ci-${item.id}`} value={draft} maxLength={400} onChange={(e) => setDraft(e.target.value)} autoFocus />
          <button type="submit">Save</button>
          <button type="button" onClick={() => { setDraft(null); announcePresence(pid, taskId, null); }}>Cancel</button>
        </form>
      )}
      <button type="button" className="icon" aria-label={`Delete item ${item.text}`} onClick={() => void call(() => del(`/checklist/${item.id}`))}>×</button>
      {clash !== null && <p className="clash" role="alert">This changed while you typed. Saved now: “{clash}”. <button type="button" onClick={() => { setDraft(clash); setClash(null); }}>Use it</button></p>}
      <ErrorLine error={error} />
    </li>
  );
}
