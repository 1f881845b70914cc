import type { Board, BoardTask, View } from '../api/types';
import { setQuery } from '../router';

const DAY = 86_400_000;

/** The roadmap: the grouping select's options as bars from their start to their target day. */
export function RoadmapView({ board, view, tasks }: { board: Board; view: View; tasks: BoardTask[] }) {
  const prop = board.properties.find((p) => p.id === view.groupById);
  if (!prop) return <p className="muted">This roadmap has no property to draw.</p>;
  const dated = prop.options.filter((o) => o.startsOn || o.targetOn);
  const days = dated.flatMap((o) => [o.startsOn, o.targetOn].filter(Boolean) as string[]).map((d) => Date.parse(d));
  const min = days.length ? Math.min(...days) : Date.now();
  const max = days.length ? Math.max(...days, min + 7 * DAY) : Date.now() + 30 * DAY;
  const span = Math.max(DAY, max - min);
  return (
    <div className="roadmap">
      <ol className="roadmap-rows" aria-label={`${prop.name} roadmap`}>
        {prop.options.map((o) => {
          const mine = tasks.filter((t) => t.values[prop.id] === o.id);
          const s = o.startsOn ? Date.parse(o.startsOn) : o.targetOn ? Date.parse(o.targetOn) - 7 * DAY : null;
          const e = o.targetOn ? Date.parse(o.targetOn) : s !== null ? s + 7 * DAY : null;
          return (
            <li key={o.id} className="roadmap-row">
              <div className="roadmap-label">
                <span className="chip-dot" style={{ background: o.color }} aria-hidden="true" /> <strong>{o.name}</strong>
                <span className="muted"> {o.startsOn ?? '…'} → {o.targetOn ?? '…'}{o.shippedAt ? ` · shipped ${o.shippedAt}` : ''} · {mine.length} tasks</span>
              </div>
              <div className="roadmap-track" aria-hidden="true">
                {s !== null && e !== null && (
                  <span
                    className="roadmap-bar"
                    style={{ left: `${((s - min) / span) * 100}%`, width: `${Math.max(2, ((e - s) / span) * 100)}%`, background: o.color }}
                  />
                )}
              </div>
              <ul className="roadmap-tasks">
                {mine.slice(0, 8).map((t) => (
                  <li key={t.id}><button type="button" className="link" onClick={() => setQuery({ task: t.id })}>{t.key} {t.title}</button></li>
                ))}
                {mine.length > 8 && <li className="muted">and {mine.length - 8} more</li>}
              </ul>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
