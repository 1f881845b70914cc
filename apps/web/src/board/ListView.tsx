import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Board, BoardTask, View } from '../api/types';
import { setQuery } from '../router';
import { cardContext, cardViewOf } from './Card';
import { ValueText } from '../task/ValueText';

/** The list: one row per task in the view's order, drawn only where it is seen. */
export function ListView({ board, view, tasks }: { board: Board; view: View; tasks: BoardTask[] }) {
  const ref = useRef<HTMLDivElement | null>(null);
  const ctx = cardContext(board, new Map(), view);
  const cv = cardViewOf(board, view);
  const cols = board.properties.filter((p) => cv?.rows?.[p.id]?.place !== 'off').slice(0, 4);
  const v = useVirtualizer({ count: tasks.length, getScrollElement: () => ref.current, estimateSize: () => 40, overscan: 10 });
  return (
    <div className="list-view" ref={ref} role="table" aria-label="Tasks" aria-rowcount={tasks.length + 1}>
      <div role="row" className="list-row list-head" aria-rowindex={1}>
        <span role="columnheader">Key</span>
        <span role="columnheader">Title</span>
        {cols.map((p) => <span role="columnheader" key={p.id}>{p.name}</span>)}
        <span role="columnheader">Checklist</span>
      </div>
      <div style={{ height: v.getTotalSize(), position: 'relative' }}>
        {v.getVirtualItems().map((item) => {
          const t = tasks[item.index];
          return (
            <div role="row" key={t.id} aria-rowindex={item.index + 2} className="list-row" style={{ transform: `translateY(${item.start}px)` }}>
              <span role="cell" className="card-key">{t.key}</span>
              <span role="cell">
                <button type="button" className="link" onClick={() => setQuery({ task: t.id })}>{t.title}</button>
              </span>
              {cols.map((p) => <span role="cell" key={p.id}><ValueText prop={p} value={t.values[p.id]} members={ctx.members} /></span>)}
              <span role="cell">{t.checklistTotal ? `${t.checklistDone}/${t.checklistTotal}` : ''}</span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
