import type { Announcements } from '@dnd-kit/core';
import type { BoardTask } from '../api/types';
import type { Column } from './model';

const COLUMN_PREFIX = 'column:';

/**
 * What a screen reader hears while a card is dragged: tasks by key and title, columns by name —
 * dnd-kit's own lines would read out the ids (UUIDs).
 */
export function dragAnnouncements(tasks: BoardTask[], columns: Column[]): Announcements {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const task = (id: unknown) => {
    const t = byId.get(String(id));
    return t ? `${t.key} ${t.title}` : 'the card';
  };
  const target = (id: unknown) => {
    const s = String(id);
    if (s.startsWith(COLUMN_PREFIX)) {
      const c = columns.find((x) => x.id === s.slice(COLUMN_PREFIX.length));
      return c ? `the column ${c.name}` : 'a column';
    }
    return task(s);
  };
  return {
    onDragStart: ({ active }) => `Picked up ${task(active.id)}.`,
    // Over its own place says nothing new.
    onDragOver: ({ active, over }) =>
      over?.id === active.id ? undefined : over ? `${task(active.id)} is over ${target(over.id)}.` : `${task(active.id)} is no longer over a drop place.`,
    onDragEnd: ({ active, over }) => (over ? `${task(active.id)} was dropped on ${target(over.id)}.` : `${task(active.id)} was dropped.`),
    onDragCancel: ({ active }) => `Dragging was cancelled. ${task(active.id)} was dropped.`,
  };
}
