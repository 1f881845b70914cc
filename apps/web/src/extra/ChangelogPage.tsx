import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post } from '../api/client';
import type { Board, ChangelogEntry, Shipped } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';
import { Markdown } from '../ui/Markdown';
import { setQuery } from '../router';

/** Ship a release or sprint, and read what shipped. */
export function ChangelogPage({ board }: { board: Board }) {
  const pid = board.project.id;
  const qc = useQueryClient();
  const log = useQuery({ queryKey: ['project-extra', pid, 'changelog'], queryFn: () => get<{ changelog: ChangelogEntry[] }>(`/projects/${pid}/changelog`) });
  const shippable = board.properties
    .filter((p) => (p.type === 'select' && p.config?.dated) || p.type === 'iteration')
    .flatMap((p) => p.options.filter((o) => !o.shippedAt).map((o) => ({ prop: p, option: o })));
  const [optionId, setOptionId] = useState('');
  const [rest, setRest] = useState('next');
  const [strays, setStrays] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const act = useAction();
  return (
    <div className="page">
      <section aria-labelledby="ship-h">
        <h2 id="ship-h">Ship a release or sprint</h2>
        {shippable.length === 0 ? <p className="muted">Nothing to ship: turn on releases or sprints in Settings and give an option a target date.</p> : (
          <form
            className="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              void act.run(async () => {
                const a = await post<Shipped>(`/options/${optionId || shippable[0].option.id}/ship`, { rest, strays });
                setResult(`Shipped on ${a.shippedAt}: ${a.archived} archived, ${a.moved} moved.`);
                await qc.invalidateQueries({ queryKey: ['board', pid] });
                await log.refetch();
              });
            }}
          >
            <label>What ships
              <select value={optionId || shippable[0].option.id} onChange={(e) => setOptionId(e.target.value)}>
                {shippable.map(({ prop, option }) => <option key={option.id} value={option.id}>{prop.name}: {option.name}{option.targetOn ? ` (target ${option.targetOn})` : ''}</option>)}
              </select>
            </label>
            <label>Tasks not over
              <select value={rest} onChange={(e) => setRest(e.target.value)}>
                <option value="next">move to the next one</option>
                <option value="leave">leave them</option>
                <option value="clear">take the value off</option>
              </select>
            </label>
            <label className="check"><input type="checkbox" checked={strays} onChange={(e) => setStrays(e.target.checked)} /> Take finished tasks in no release along</label>
            <button type="submit" className="primary">Ship</button>
          </form>
        )}
        {result && <p role="status">{result}</p>}
        <ErrorLine error={act.error} />
      </section>
      <section aria-labelledby="log-h">
        <h2 id="log-h">Changelog</h2>
        <ErrorLine error={log.error?.message ?? null} />
        {log.data?.changelog.length === 0 && <p className="muted">Nothing shipped yet.</p>}
        {log.data?.changelog.map((c) => (
          <article key={c.optionId} className="changelog-entry">
            <h3>{c.propertyName}: {c.name} <span className="muted">{c.shippedAt}</span></h3>
            {c.note && <Markdown text={c.note} />}
            <ul>{c.tasks.map((t) => <li key={t.id}><button type="button" className="link" onClick={() => setQuery({ task: t.id })}>{t.key}</button> {t.title}</li>)}</ul>
          </article>
        ))}
      </section>
    </div>
  );
}
