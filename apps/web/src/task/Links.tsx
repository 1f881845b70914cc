import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { del, post, put } from '../api/client';
import type { Board, FullTask, LinkRow } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';
import { setQuery } from '../router';

/** Blockers (both ways), the parent and the parts; a task is named by its key. */
export function Links({ task, board, onChanged }: { task: FullTask; board: Board; onChanged: () => Promise<void> }) {
  const qc = useQueryClient();
  const act = useAction();
  const [blocker, setBlocker] = useState('');
  const [parent, setParent] = useState('');
  const byKey = (key: string) => board.tasks.find((t) => t.key.toLowerCase() === key.trim().toLowerCase());
  const done = async () => {
    await onChanged();
    await qc.invalidateQueries({ queryKey: ['board', board.project.id] });
  };
  const row = (r: LinkRow, remove?: () => Promise<unknown>, label?: string) => (
    <li key={r.id} className={r.over ? 'over' : ''}>
      <button type="button" className="link" onClick={() => setQuery({ task: r.id })}>{r.key} {r.title}</button>
      {r.over && <span className="muted"> (over)</span>}
      {remove && <button type="button" className="icon" aria-label={label} onClick={() => void act.run(async () => { await remove(); await done(); })}>×</button>}
    </li>
  );
  const find = (key: string) => {
    const t = byKey(key);
    if (!t) throw new Error(`No live task has the key ${key.trim() || '(empty)'}.`);
    return t;
  };
  return (
    <section aria-labelledby="links-h" className="links">
      <h3 id="links-h">Blockers and parts</h3>
      <datalist id="task-keys">{board.tasks.slice(0, 500).map((t) => <option key={t.id} value={t.key}>{t.title}</option>)}</datalist>
      <h4>Waits on</h4>
      <ul>{task.links.blockedBy.map((r) => row(r, () => del(`/tasks/${task.id}/blockers/${r.id}`), `Stop waiting on ${r.key}`))}</ul>
      <form className="inline-form" onSubmit={(e) => { e.preventDefault(); void act.run(async () => { await post(`/tasks/${task.id}/blockers`, { blockerId: find(blocker).id }); setBlocker(''); await done(); }); }}>
        <label>Add a blocker (key)<input list="task-keys" value={blocker} onChange={(e) => setBlocker(e.target.value)} /></label>
        <button type="submit">Add blocker</button>
      </form>
      {task.links.blocks.length > 0 && (<><h4>Blocks</h4><ul>{task.links.blocks.map((r) => row(r))}</ul></>)}
      <h4>Part of</h4>
      {task.parent ? <ul>{row(task.parent, () => del(`/tasks/${task.id}/parent`), `Leave ${task.parent.key}`)}</ul> : (
        <form className="inline-form" onSubmit={(e) => { e.preventDefault(); void act.run(async () => { await put(`/tasks/${task.id}/parent`, { parentId: find(parent).id }); setParent(''); await done(); }); }}>
          <label>Parent task (key)<input list="task-keys" value={parent} onChange={(e) => setParent(e.target.value)} /></label>
          <button type="submit">Set parent</button>
        </form>
      )}
      {task.children.length > 0 && (<><h4>Parts</h4><ul>{task.children.map((r) => row(r))}</ul></>)}
      <ErrorLine error={act.error} />
    </section>
  );
}
