import { memo } from 'react';
import type { Board, BoardTask, CardView, Member, Property, Run, View } from '../api/types';
import { Avatar } from '../ui/Avatar';
import { isEmpty } from './model';

export interface CardContext {
  board: Board;
  props: Map<string, Property>;
  members: Map<string, Member>;
  runs: Map<string, Run>;
  rows: { prop: Property; place: string; mode: string }[];
  here: Map<string, Member[]>; // task id -> people who have it open
}

/** The card view a view draws with: its own when it has one, else the project's. */
export function cardViewOf(board: Board, view: View | undefined | null): CardView {
  return view?.cardView ?? board.cardView;
}

export function cardContext(board: Board, here: Map<string, Member[]>, view?: View | null): CardContext {
  const props = new Map(board.properties.map((p) => [p.id, p]));
  const cv = cardViewOf(board, view);
  const rows = board.properties
    .map((p) => ({ prop: p, place: cv?.rows?.[p.id]?.place ?? 'footer', mode: cv?.rows?.[p.id]?.mode ?? 'text' }))
    .filter((r) => r.place !== 'off');
  return {
    board,
    props,
    members: new Map(board.members.map((m) => [m.id, m])),
    runs: new Map(board.runs.map((r) => [r.taskId, r])),
    rows,
    here,
  };
}

function ValueChip({ prop, value, ctx, mode }: { prop: Property; value: unknown; ctx: CardContext; mode: string }) {
  if (isEmpty(value)) return null;
  switch (prop.type) {
    case 'select':
    case 'iteration': {
      const o = prop.options.find((x) => x.id === value);
      if (!o) return null;
      if (mode === 'colour') return <span className="colour-bar" style={{ background: o.color }} title={`${prop.name}: ${o.name}`} />;
      return <span className="chip" style={{ borderColor: o.color }}><span className="chip-dot" style={{ background: o.color }} aria-hidden="true" />{o.name}</span>;
    }
    case 'multi_select':
      return (
        <>
          {(value as string[]).map((id) => {
            const o = prop.options.find((x) => x.id === id);
            return o ? <span key={id} className="chip" style={{ borderColor: o.color }}>{o.name}</span> : null;
          })}
        </>
      );
    case 'person': {
      const m = ctx.members.get(value as string);
      return m ? <Avatar person={m} size={20} title={`${prop.name}: ${m.name}`} /> : null;
    }
    case 'checkbox':
      return value === true ? <span className="chip">✓ {prop.name}</span> : null;
    case 'link':
      return <span className="chip">{(value as string[]).length} link{(value as string[]).length === 1 ? '' : 's'}</span>;
    default:
      return <span className="chip" title={prop.name}>{String(value)}</span>;
  }
}

export const CardBody = memo(function CardBody({ task, ctx }: { task: BoardTask; ctx: CardContext }) {
  const run = ctx.runs.get(task.id);
  const header = ctx.rows.filter((r) => r.place === 'headerL' || r.place === 'headerR' || r.mode === 'colour');
  const footer = ctx.rows.filter((r) => !header.includes(r) && r.place !== 'title');
  const inTitle = ctx.rows.filter((r) => !header.includes(r) && r.place === 'title');
  const here = ctx.here.get(task.id);
  return (
    <>
      <div className="card-head">
        <span className="card-key">{task.key}</span>
        {header.map((r) => <ValueChip key={r.prop.id} prop={r.prop} value={task.values[r.prop.id]} ctx={ctx} mode={r.mode} />)}
        {here && <span className="here">{here.map((m) => <Avatar key={m.id} person={m} size={16} title={`${m.name} has it open`} />)}</span>}
      </div>
      <div className="card-title">
        {inTitle.map((r) => <ValueChip key={r.prop.id} prop={r.prop} value={task.values[r.prop.id]} ctx={ctx} mode={r.mode} />)} {task.title}
      </div>
      <div className="card-foot">
        {footer.map((r) => <ValueChip key={r.prop.id} prop={r.prop} value={task.values[r.prop.id]} ctx={ctx} mode={r.mode} />)}
        {task.blockedBy.length > 0 && <span className="chip blocked">waits on {task.blockedBy.join(', ')}</span>}
        {task.parts && <span className="chip">parts {task.parts.done}/{task.parts.total}</span>}
        {task.checklistTotal > 0 && <span className="chip">☑ {task.checklistDone}/{task.checklistTotal}<span className="sr-only"> checklist items done</span></span>}
        {task.commentCount > 0 && <span className="chip">{task.commentCount} comment{task.commentCount === 1 ? '' : 's'}</span>}
      </div>
      {run && (
        <div className={`card-run run-${run.status}`}>
          <Avatar person={run.agent} size={16} />
          <span className="run-status">{run.status === 'handed_over' ? 'Waiting for review' : run.status}</span>
          <span className="run-step">{run.step}</span>
          {run.stepsTotal ? (
            <progress max={run.stepsTotal} value={run.stepsDone ?? 0} aria-label={`Run progress ${run.stepsDone ?? 0} of ${run.stepsTotal}`} />
          ) : null}
        </div>
      )}
    </>
  );
});
