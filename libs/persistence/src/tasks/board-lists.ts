import { countParts, DoneWhen, isOver, taskKey } from '@board/tasks';

/**
 * A task row as the board lists read it: timestamps as UTC text and values as the jsonb's own
 * text, so that building the lists decodes nothing that is only passed through (bench/README.md,
 * finding 10: decoding 6,000 rows into objects and encoding them again was most of a cache miss).
 */
export interface ListRow {
  id: string;
  number: number;
  title: string;
  description: string;
  position: string;
  created: string;
  updated: string;
  archived: string | null;
  values_text: string;
  parent_id: string | null;
}

export const LIST_COLUMNS = `id, number, title, description, position,
  (created_at AT TIME ZONE 'UTC')::text AS created, (updated_at AT TIME ZONE 'UTC')::text AS updated,
  (archived_at AT TIME ZONE 'UTC')::text AS archived, "values"::text AS values_text, parent_id`;

export interface BoardListsJson {
  /** The JSON text of each live task (board shape), in rank order. */
  tasks: string[];
  /** The JSON text of each archived task, in rank order. */
  archived: string[];
}

/**
 * Writes the board's task lists as JSON text, field for field what JSON.stringify writes for the
 * `BoardTask` and `ArchivedTask` objects of `TaskQueries` (the e2e test board-lists compares the
 * two), except that `values` keeps PostgreSQL's spacing.
 */
export function boardListsJson(
  rows: readonly ListRow[],
  checklists: readonly { task_id: string; total: number; done: number }[],
  comments: readonly { task_id: string; n: number }[],
  links: readonly { task_id: string; blocker_id: string }[],
  projectKey: string,
  doneWhen: DoneWhen | null,
): BoardListsJson {
  const { byId, checklistOf, commentsOf, blockersOf, partsOf } = indexRelated(rows, checklists, comments, links);
  // Values are parsed only where a rule reads them: blockers and parts (is it over?).
  const parsed = new Map<string, Record<string, unknown>>();
  const valuesOf = (r: ListRow) => {
    let v = parsed.get(r.id);
    if (!v) parsed.set(r.id, (v = JSON.parse(r.values_text) as Record<string, unknown>));
    return v;
  };
  const key = (n: number) => JSON.stringify(taskKey(projectKey, n));
  const tasks: string[] = [];
  const archived: string[] = [];
  for (const r of rows) {
    const common = `{"id":"${r.id}","number":${r.number},"key":${key(r.number)},"title":${JSON.stringify(r.title)},"description":${JSON.stringify(r.description)},"position":${JSON.stringify(r.position)}`;
    if (r.archived !== null) {
      archived.push(`${common},"archivedAt":"${iso(r.archived)}"}`);
      continue;
    }
    const blockers = (blockersOf.get(r.id) ?? [])
      .map((id) => byId.get(id))
      .filter((b): b is ListRow => b !== undefined && !isOver(valuesOf(b), doneWhen))
      .sort((a, b) => a.number - b.number)
      .map((b) => taskKey(projectKey, b.number));
    const parts = partsOf.get(r.id) ?? [];
    const checklist = checklistOf.get(r.id);
    tasks.push(
      `${common},"createdAt":"${iso(r.created)}","updatedAt":"${iso(r.updated)}","archivedAt":null,"values":${r.values_text}` +
        `,"checklistTotal":${checklist?.total ?? 0},"checklistDone":${checklist?.done ?? 0},"commentCount":${commentsOf.get(r.id) ?? 0}` +
        `,"blockedBy":${JSON.stringify(blockers)},"parts":${JSON.stringify(countParts(parts.map((p) => ({ values: valuesOf(p), archived: p.archived !== null })), doneWhen))}}`,
    );
  }
  return { tasks, archived };
}

/** Lookups a board list is assembled from: rows by id, counts and blockers by task, parts by parent. */
export function indexRelated<R extends { id: string; parent_id: string | null }>(
  rows: readonly R[],
  checklists: readonly { task_id: string; total: number; done: number }[],
  comments: readonly { task_id: string; n: number }[],
  links: readonly { task_id: string; blocker_id: string }[],
) {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const checklistOf = new Map(checklists.map((c) => [c.task_id, c]));
  const commentsOf = new Map(comments.map((c) => [c.task_id, c.n]));
  const blockersOf = new Map<string, string[]>();
  for (const l of links) {
    const list = blockersOf.get(l.task_id);
    if (list) list.push(l.blocker_id);
    else blockersOf.set(l.task_id, [l.blocker_id]);
  }
  const partsOf = new Map<string, R[]>();
  for (const r of rows) {
    if (!r.parent_id) continue;
    const list = partsOf.get(r.parent_id);
    if (list) list.push(r);
    else partsOf.set(r.parent_id, [r]);
  }
  return { byId, checklistOf, commentsOf, blockersOf, partsOf };
}

/**
 * `YYYY-MM-DD HH:MM:SS[.ffffff]` (UTC, DateStyle ISO) as Date#toJSON writes the same moment:
 * milliseconds, truncated as the driver's own date parsing truncates them.
 */
export function iso(text: string): string {
  const n = text.length;
  if (n >= 19 && n <= 26 && text[4] === '-' && text[7] === '-' && text[10] === ' ' && text[13] === ':' && text[16] === ':' && (n === 19 || text[19] === '.')) {
    const fraction = n > 20 ? text.slice(20, 23).padEnd(3, '0') : '000';
    return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`;
  }
  return new Date(`${text.replace(' ', 'T')}Z`).toISOString();
}
