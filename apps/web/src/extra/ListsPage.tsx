import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { del, get, patch, post, put } from '../api/client';
import type { CreatedList, ListTask, TaskList } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';
import { linkProps, navigate } from '../router';

const useLists = () => useQuery({ queryKey: ['lists'], queryFn: async () => (await get<{ lists: TaskList[] }>('/lists')).lists, retry: false });

/** A person's own lists of tasks across projects. */
export function ListsPage({ listId }: { listId: string | null }) {
  const qc = useQueryClient();
  const lists = useLists();
  const [name, setName] = useState('');
  const act = useAction();
  return (
    <div className="page lists-page">
      <h1>Your lists</h1>
      <ErrorLine error={lists.error?.message ?? act.error} />
      <div className="split">
        <nav aria-label="Lists">
          <ul className="rows">
            {lists.data?.map((l) => (
              <li key={l.id}><a {...linkProps(`/lists/${l.id}`)} aria-current={l.id === listId ? 'page' : undefined}>{l.name} <span className="muted">{l.count}</span></a></li>
            ))}
          </ul>
          <form className="inline-form" onSubmit={(e) => { e.preventDefault(); void act.run(async () => { const a = await post<CreatedList>('/lists', { name }); setName(''); await qc.invalidateQueries({ queryKey: ['lists'] }); navigate(`/lists/${a.list.id}`); }); }}>
            <label>New list<input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} /></label>
            <button type="submit">Make list</button>
          </form>
        </nav>
        {listId && <ListDetail key={listId} listId={listId} />}
      </div>
    </div>
  );
}

function ListDetail({ listId }: { listId: string }) {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: ['list', listId], queryFn: () => get<{ list: TaskList; tasks: ListTask[] }>(`/lists/${listId}`) });
  const act = useAction();
  const [name, setName] = useState<string | null>(null);
  const again = async () => { await q.refetch(); await qc.invalidateQueries({ queryKey: ['lists'] }); };
  if (!q.data) return <ErrorLine error={q.error?.message ?? null} />;
  const tasks = q.data.tasks;
  const moveTo = (i: number, to: number) => act.run(async () => {
    const rest = tasks.filter((_, j) => j !== i);
    await put(`/lists/${listId}/tasks/${tasks[i].id}`, { afterId: to === 0 ? null : rest[to - 1].id });
    await again();
  });
  return (
    <section aria-labelledby="list-h" className="list-detail">
      <h2 id="list-h">{q.data.list.name}</h2>
      <form className="inline-form" onSubmit={(e) => { e.preventDefault(); void act.run(async () => { await patch(`/lists/${listId}`, { name: name ?? q.data.list.name }); setName(null); await again(); }); }}>
        <label>Rename<input value={name ?? q.data.list.name} onChange={(e) => setName(e.target.value)} /></label>
        <button type="submit">Rename</button>
        <button type="button" className="danger" onClick={() => void act.run(async () => { await del(`/lists/${listId}`); await qc.invalidateQueries({ queryKey: ['lists'] }); navigate('/lists'); })}>Delete list</button>
      </form>
      <ol className="rows">
        {tasks.map((t, i) => (
          <li key={t.id} className="row">
            <a {...linkProps(`/p/${t.projectId}?task=${t.id}`)}>{t.key} {t.title}</a>
            {t.archived && <span className="muted">archived</span>}
            <button type="button" className="icon" aria-label={`Move ${t.key} up`} disabled={i === 0} onClick={() => void moveTo(i, i - 1)}>↑</button>
            <button type="button" className="icon" aria-label={`Move ${t.key} down`} disabled={i === tasks.length - 1} onClick={() => void moveTo(i, i + 1)}>↓</button>
            <button type="button" className="icon" aria-label={`Take ${t.key} off the list`} onClick={() => void act.run(async () => { await del(`/lists/${listId}/tasks/${t.id}`); await again(); })}>×</button>
          </li>
        ))}
        {tasks.length === 0 && <li className="muted">Add tasks from a task’s panel.</li>}
      </ol>
      <ErrorLine error={act.error} />
    </section>
  );
}

/** In the task panel: put this task on one of my lists. */
export function AddToList({ taskId }: { taskId: string }) {
  const lists = useLists();
  const qc = useQueryClient();
  const act = useAction();
  const [done, setDone] = useState<string | null>(null);
  const mine = lists.data;
  if (!mine?.length) return null;
  return (
    <span className="add-to-list">
      <label>Add to list
        <select value="" onChange={(e) => { const id = e.target.value; if (!id) return; void act.run(async () => { await put(`/lists/${id}/tasks/${taskId}`, {}); setDone(mine.find((l) => l.id === id)?.name ?? ''); await qc.invalidateQueries({ queryKey: ['lists'] }); }); }}>
          <option value="">Choose…</option>
          {mine.map((l) => <option key={l.id} value={l.id}>{l.name}</option>)}
        </select>
      </label>
      {done && <span role="status" className="muted">Added to {done}.</span>}
      <ErrorLine error={act.error} />
    </span>
  );
}
