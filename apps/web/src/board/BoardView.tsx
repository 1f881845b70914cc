import { memo, useCallback, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  DndContext, DragOverlay, MouseSensor, TouchSensor, closestCenter, pointerWithin, useDraggable, useDroppable, useSensor, useSensors,
  type CollisionDetection, type DragEndEvent, type DragStartEvent,
} from '@dnd-kit/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Board, BoardTask, Member, View } from '../api/types';
import { errorText } from '../api/client';
import { setQuery } from '../router';
import type { Presence } from './live';
import { buildColumns, type Column } from './model';
import { CardBody, cardContext, type CardContext } from './Card';
import { CardQuestion } from '../task/RunQuestion';
import { moveTask, type MoveTarget } from './moves';
import { columnValues, createTask } from './create-task';
import { dragAnnouncements } from './drag-announcements';
import { ErrorLine, useAction } from '../ui/Field';

const COLUMN_PREFIX = 'column:';

// Cards under the pointer win over the column they sit in; outside every droppable, the nearest.
const collisions: CollisionDetection = (args) => {
  const hits = pointerWithin(args);
  const cards = hits.filter((h) => !String(h.id).startsWith(COLUMN_PREFIX));
  if (cards.length) return cards;
  if (hits.length) return hits;
  return closestCenter(args);
};

export function BoardView({ board, view, tasks, presence }: { board: Board; view: View | undefined; tasks: BoardTask[]; presence: Presence }) {
  const qc = useQueryClient();
  const groupBy = board.properties.find((p) => p.id === view?.groupById);
  const columns = useMemo(() => buildColumns(board, groupBy, tasks), [board, groupBy, tasks]);
  const here = useMemo(() => {
    const map = new Map<string, Member[]>();
    for (const p of presence.values()) {
      const m = board.members.find((x) => x.id === p.userId);
      if (!m || !p.taskId) continue;
      const list = map.get(p.taskId) ?? [];
      if (!list.some((x) => x.id === m.id)) list.push(m);
      map.set(p.taskId, list);
    }
    return map;
  }, [presence, board.members]);
  const ctx = useMemo(() => cardContext(board, here, view), [board, here, view]);
  const announcements = useMemo(() => dragAnnouncements(tasks, columns), [tasks, columns]);
  const [dragging, setDragging] = useState<BoardTask | null>(null);
  const [announce, setAnnounce] = useState('');
  const [error, setError] = useState<string | null>(null);
  // A mouse drags after 5 px; a finger after a short press, so a swipe still scrolls the column.
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 6 } }),
  );

  const columnOf = useCallback((taskId: string) => columns.find((c) => c.tasks.some((t) => t.id === taskId)), [columns]);

  const move = useCallback(
    async (task: BoardTask, to: Column, target: Omit<MoveTarget, 'value'>) => {
      const from = columnOf(task.id);
      const change = groupBy && from?.id !== to.id ? { property: groupBy, value: to.value } : undefined;
      setError(null);
      try {
        await moveTask(qc, board.project.id, task.id, { ...target, value: change });
        setAnnounce(`${task.key} moved${change ? ` to ${to.name}` : ''}.`);
      } catch (e) {
        setError(errorText(e));
      }
    },
    [qc, board.project.id, groupBy, columnOf],
  );

  const onDragStart = (e: DragStartEvent) => setDragging(tasks.find((t) => t.id === e.active.id) ?? null);
  const onDragEnd = (e: DragEndEvent) => {
    setDragging(null);
    const task = tasks.find((t) => t.id === e.active.id);
    if (!task || !e.over) return;
    const overId = String(e.over.id);
    if (overId === task.id) return;
    if (overId.startsWith(COLUMN_PREFIX)) {
      const to = columns.find((c) => c.id === overId.slice(COLUMN_PREFIX.length));
      if (!to) return;
      const last = [...to.tasks].reverse().find((t) => t.id !== task.id);
      void move(task, to, last ? { afterId: last.id } : {});
      return;
    }
    const to = columnOf(overId);
    if (!to) return;
    const active = e.active.rect.current.translated;
    const above = active ? active.top + active.height / 2 < e.over.rect.top + e.over.rect.height / 2 : true;
    void move(task, to, above ? { beforeId: overId } : { afterId: overId });
  };

  // Keyboard moves on a focused card: Alt+↑/↓ within the column, Alt+←/→ to the next column.
  const onCardKey = useCallback(
    (e: React.KeyboardEvent, task: BoardTask) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        setQuery({ task: task.id });
        return;
      }
      if (!e.altKey) return;
      const ci = columns.findIndex((c) => c.tasks.some((t) => t.id === task.id));
      if (ci < 0) return;
      const col = columns[ci];
      const i = col.tasks.findIndex((t) => t.id === task.id);
      let done = true;
      if (e.key === 'ArrowUp' && i > 0) void move(task, col, { beforeId: col.tasks[i - 1].id });
      else if (e.key === 'ArrowDown' && i < col.tasks.length - 1) void move(task, col, { afterId: col.tasks[i + 1].id });
      else if ((e.key === 'ArrowLeft' && ci > 0) || (e.key === 'ArrowRight' && ci < columns.length - 1)) {
        const to = columns[ci + (e.key === 'ArrowLeft' ? -1 : 1)];
        void move(task, to, to.tasks.length ? { beforeId: to.tasks[0].id } : {});
      } else done = false;
      if (done) {
        e.preventDefault();
        // Keep the focus on the moved card once it is drawn in its new place.
        let tries = 0;
        const refocus = () => {
          const el = document.getElementById(`card-${task.id}`);
          if (el && document.activeElement !== el) el.focus();
          if (++tries < 20) requestAnimationFrame(refocus);
        };
        requestAnimationFrame(refocus);
      }
    },
    [columns, move],
  );

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisions}
      accessibility={{ announcements, screenReaderInstructions: { draggable: 'Press Enter to open. Alt and arrow keys move the card.' } }}
      onDragStart={onDragStart} onDragEnd={onDragEnd} onDragCancel={() => setDragging(null)}>
      <p className="sr-only" id="card-help">Press Enter to open. Alt and arrow keys move the card: up and down in its column, left and right to the next column.</p>
      <div className="sr-only" role="status" aria-live="polite">{announce}</div>
      {error && <p className="error" role="alert">{error}</p>}
      <div className="columns" aria-label="Board columns">
        {columns.map((c) => (
          <ColumnView key={c.id} column={c} ctx={ctx} groupById={groupBy?.id} onCardKey={onCardKey} />
        ))}
      </div>
      <DragOverlay dropAnimation={null}>
        {dragging ? <div className="card dragging"><CardBody task={dragging} ctx={ctx} /></div> : null}
      </DragOverlay>
    </DndContext>
  );
}

const ColumnView = memo(function ColumnView({ column, ctx, groupById, onCardKey }: {
  column: Column;
  ctx: CardContext;
  groupById: string | undefined;
  onCardKey: (e: React.KeyboardEvent, t: BoardTask) => void;
}) {
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const { setNodeRef, isOver } = useDroppable({ id: COLUMN_PREFIX + column.id });
  const virtualizer = useVirtualizer({
    count: column.tasks.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 88,
    overscan: 6,
    getItemKey: (i) => column.tasks[i].id,
  });
  const headingId = `col-${column.id}`;
  return (
    <section className={`column${isOver ? ' over' : ''}`} aria-labelledby={headingId} ref={setNodeRef} data-column={column.name}>
      <h2 className="column-head" id={headingId}>
        {column.color && <span className="chip-dot" style={{ background: column.color }} aria-hidden="true" />}
        {column.name} <span className="muted">{column.tasks.length}</span>
      </h2>
      <div className="column-scroll" ref={scrollRef}>
        <ul className="column-list" style={{ height: virtualizer.getTotalSize() }} aria-label={`${column.name} tasks`}>
          {virtualizer.getVirtualItems().map((item) => {
            const task = column.tasks[item.index];
            return (
              <li
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className="card-slot"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <CardItem task={task} ctx={ctx} onKey={onCardKey} />
              </li>
            );
          })}
        </ul>
      </div>
      <AddCard column={column} board={ctx.board} groupById={groupById} />
    </section>
  );
});

/** "+ Add a card" at a column's foot: the new task takes the column's value and lands at its end. */
function AddCard({ column, board, groupById }: { column: Column; board: Board; groupById: string | undefined }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState('');
  const add = useAction();
  const inputId = `add-card-${column.id}`;
  if (!open) {
    return (
      <button type="button" className="ghost add-card" onClick={() => setOpen(true)} aria-label={`Add a card to ${column.name}`}>
        + Add a card
      </button>
    );
  }
  return (
    <form
      className="add-card-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!title.trim()) return;
        void add.run(async () => {
          await createTask(qc, board, title, columnValues(groupById, column));
          setTitle('');
        });
      }}
    >
      <label className="sr-only" htmlFor={inputId}>New task title in {column.name}</label>
      <input
        id={inputId}
        autoFocus
        value={title}
        maxLength={400}
        placeholder="Task title…"
        onChange={(e) => setTitle(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setOpen(false);
        }}
      />
      <span className="add-card-actions">
        <button type="submit" className="primary" disabled={add.busy}>Add</button>
        <button type="button" onClick={() => setOpen(false)}>Cancel</button>
      </span>
      <ErrorLine error={add.error} />
    </form>
  );
}

const CardItem = memo(function CardItem({ task, ctx, onKey }: { task: BoardTask; ctx: CardContext; onKey: (e: React.KeyboardEvent, t: BoardTask) => void }) {
  const drag = useDraggable({ id: task.id });
  const drop = useDroppable({ id: task.id });
  const ref = (node: HTMLElement | null) => {
    drag.setNodeRef(node);
    drop.setNodeRef(node);
  };
  const card = (
    <div
      ref={ref}
      id={`card-${task.id}`}
      className={`card${drag.isDragging ? ' ghost-card' : ''}${drop.isOver ? ' drop-target' : ''}`}
      data-task-key={task.key}
      role="button"
      tabIndex={0}
      aria-roledescription="card"
      aria-describedby="card-help"
      onClick={() => setQuery({ task: task.id })}
      {...drag.listeners}
      onKeyDown={(e) => onKey(e, task)}
    >
      <CardBody task={task} ctx={ctx} />
    </div>
  );
  const run = ctx.runs.get(task.id);
  // The question's buttons sit beside the card's own button, never inside it.
  return run?.question ? <>{card}<CardQuestion run={run} /></> : card;
});
