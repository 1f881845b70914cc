import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { del, get, post } from '../api/client';
import type { Board, DeletedRow, SearchHit } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';
import { setQuery } from '../router';

/** Archived tasks (with search over their descriptions) and the deleted ones, each with restore. */
export function TrashPage({ board }: { board: Board }) {
  const qc = useQueryClient();
  const pid = board.project.id;
  const [q, setQ] = useState('');
  const [submitted, setSubmitted] = useState('');
  const search = useQuery({
    queryKey: ['project-extra', pid, 'search', submitted],
    queryFn: () => get<{ hits: SearchHit[]; total: number }>(`/projects/${pid}/search?q=${encodeURIComponent(submitted)}`),
    enabled: submitted.trim() !== '',
  });
  const deleted = useQuery({ queryKey: ['project-extra', pid, 'deleted'], queryFn: () => get<{ deleted: DeletedRow[]; windowDays: number }>(`/projects/${pid}/deleted`) });
  const act = useAction();
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: ['board', pid] });
    await qc.invalidateQueries({ queryKey: ['project-extra', pid] });
  };
  const needle = submitted.trim().toLowerCase();
  const archived = board.archived.filter((a) => !needle || `${a.key} ${a.title}`.toLowerCase().includes(needle));
  return (
    <div className="page">
      <ErrorLine error={act.error} />
      <section aria-labelledby="archived-h">
        <h2 id="archived-h">Archived tasks</h2>
        <form className="inline-form" role="search" onSubmit={(e) => { e.preventDefault(); setSubmitted(q); }}>
          <label>Search archived tasks<input type="search" value={q} onChange={(e) => setQ(e.target.value)} /></label>
          <button type="submit">Search</button>
        </form>
        <ul className="rows">
          {archived.map((a) => (
            <li key={a.id} className="row">
              <button type="button" className="link" onClick={() => setQuery({ task: a.id })}>{a.key} {a.title}</button>
              <span className="muted">archived {new Date(a.archivedAt).toLocaleDateString()}</span>
              <button type="button" onClick={() => void act.run(async () => { await del(`/tasks/${a.id}/archive`); await refresh(); })}>Put back</button>
            </li>
          ))}
          {search.data?.hits
            .filter((h) => !archived.some((a) => a.id === h.task.id))
            .map((h) => (
              <li key={h.task.id} className="row">
                <button type="button" className="link" onClick={() => setQuery({ task: h.task.id })}>{h.task.key} {h.task.title}</button>
                <span className="muted snippet">{h.snippet}</span>
                <button type="button" onClick={() => void act.run(async () => { await del(`/tasks/${h.task.id}/archive`); await refresh(); })}>Put back</button>
              </li>
            ))}
          {archived.length === 0 && !search.data?.hits.length && <li className="muted">No archived tasks{needle ? ' match' : ''}.</li>}
        </ul>
        {search.data && <p className="muted">{search.data.total} found in descriptions.</p>}
      </section>
      <section aria-labelledby="deleted-h">
        <h2 id="deleted-h">Deleted tasks</h2>
        <p className="muted">Deleted tasks can be restored for {deleted.data?.windowDays ?? 30} days.</p>
        <ul className="rows">
          {deleted.data?.deleted.map((d) => (
            <li key={d.id} className="row">
              <span>{d.key} {d.title}</span>
              <span className="muted">goes {new Date(d.goesAt).toLocaleDateString()}</span>
              <button type="button" onClick={() => void act.run(async () => { await post(`/tasks/${d.id}/restore`); await refresh(); })}>Restore {d.key}</button>
            </li>
          ))}
          {deleted.data?.deleted.length === 0 && <li className="muted">Nothing deleted.</li>}
        </ul>
      </section>
    </div>
  );
}
