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
  /** More than one select drawn as a colour bar: the bars carry their option's name. */
  barsLabelled: boolean;
  /** Whether the project's doneWhen counts the task as over (a done task is never overdue). */
  done: (task: BoardTask) => boolean;
}

/** Today's date where the reader is, as the date values are written (YYYY-MM-DD). */
function todayHere(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
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
    barsLabelled: rows.filter((r) => r.mode === 'colour' && (r.prop.type === 'select' || r.prop.type === 'iteration')).length > 1,
    done: (task) => {
      const dw = board.project.doneWhen;
      if (!dw) return false;
      const v = task.values[dw.propertyId];
      return typeof v === 'string' && dw.optionIds.includes(v);
    },
  };
}

function ValueChip({ prop, value, ctx, mode, task }: { prop: Property; value: unknown; ctx: CardContext; mode: string; task: BoardTask }) {
  if (isEmpty(value)) return null;
  switch (prop.type) {
    case 'select':
    case 'iteration': {
      const o = prop.options.find((x) => x.id === value);
      if (!o) return null;
      // A bar has no words: its tooltip and accessible name say whose colour it is, so two bars side by side read apart.
      if (mode === 'colour') {
        const bar = <span className="colour-bar" role="img" style={{ background: o.color }} title={`${prop.name}: ${o.name}`} aria-label={`${prop.name}: ${o.name}`} />;
        // Two bars side by side look alike: each then shows its option's name too.
        return ctx.barsLabelled ? <span className="bar-labelled">{bar}<span className="bar-label" aria-hidden="true">{o.name}</span></span> : bar;
      }
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
    case 'date': {
      const day = String(value);
      if (day < todayHere() && !ctx.done(task)) {
        return <span className="chip overdue" title={`${prop.name}: ${day}, overdue`}>{day} <span className="overdue-word">overdue</span></span>;
      }
      return <span className="chip" title={prop.name}>{day}</span>;
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
        {header.map((r) => <ValueChip key={r.prop.id} prop={r.prop} value={task.values[r.prop.id]} ctx={ctx} mode={r.mode} task={task} />)}
        {here && <span className="here">{here.map((m) => <Avatar key={m.id} person={m} size={16} title={`${m.name} has it open`} />)}</span>}
      </div>
      <div className="card-title">
        {inTitle.map((r) => <ValueChip key={r.prop.id} prop={r.prop} value={task.values[r.prop.id]} ctx={ctx} mode={r.mode} task={task} />)} {task.title}
      </div>
      <div className="card-foot">
        {footer.map((r) => <ValueChip key={r.prop.id} prop={r.prop} value={task.values[r.prop.id]} ctx={ctx} mode={r.mode} task={task} />)}
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
