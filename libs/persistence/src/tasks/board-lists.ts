import { brokenInvariant } from '@board/kernel';
import { countParts, DoneWhen, isOver, taskKey } from '@board/tasks';
import { ListRow } from './tasks.table';
import { TaskLinkRow } from './task-links.table';
import { ARCHIVED_TASK_TAIL_FIELDS, jsonMembers, LIVE_TASK_ROW_FIELDS, LIVE_TASK_TAIL_FIELDS, TASK_HEAD_FIELDS, VALUES_MARK } from './board-task.fields';
import type { TaskValues } from '@board/properties';
import { LoopTurns } from '../loop-turns';

/** What the board's lists are made of besides the task rows. */
export interface ListRelated {
  checklists: readonly { task_id: string; total: number; done: number }[];
  comments: readonly { task_id: string; n: number }[];
  links: readonly TaskLinkRow[];
}

/**
 * One task's JSON inside a built list. A live task's JSON is a head, fixed by its row version
 * (`x`), and a tail (counts, blockedBy, parts) that other rows decide, so a later build copies the
 * bytes of every row whose version did not change and writes only the changed rows and tails.
 */
interface Piece {
  x: string;
  number: number;
  parent_id: string | null;
  archived: boolean;
  /** The list buffer this task's JSON sits in, at `off`, `len` bytes. */
  list: Buffer;
  off: number;
  len: number;
  /** Live tasks: the tail as written (the head is everything before it). */
  tail: string;
  /** Archived tasks: their values (not part of their JSON). */
  valuesText: string | null;
  values: TaskValues | null;
}

/** The board's task lists as UTF-8 JSON, with what a later build of the same project reuses. */
export interface BoardLists {
  projectKey: string;
  tasksJson: Buffer;
  archivedJson: Buffer;
  /** The first three live tasks, for the settings read's card preview. */
  firstThreeJson: Buffer;
  taskCount: number;
  pieces: ReadonlyMap<string, Piece>;
}

/** A task being placed: its piece in the previous build (same row version), or a fresh row. */
type Work = {
  id: string;
  number: number;
  parent_id: string | null;
  archived: boolean;
  values: TaskValues | null;
} & ({ prev: Piece; row: null } | { prev: null; row: ListRow });

/**
 * Writes the board's lists, field for field what JSON.stringify writes for the `BoardTask` and
 * `ArchivedTask` objects of `TaskQuery`: both take their keys from board-task.fields.ts (and the
 * e2e test board-lists still compares the two), except that
 * `values` keeps PostgreSQL's spacing. `order` is every non-deleted task in rank order with its
 * row version; a task whose version matches its piece in `previous` is copied from there, any
 * other is written from `freshRows` (a task in neither was deleted since `order` was read: left out).
 */
export async function buildBoardLists(
  order: readonly { id: string; x: string }[],
  freshRows: readonly ListRow[],
  previous: BoardLists | null,
  related: ListRelated,
  projectKey: string,
  doneWhen: DoneWhen | null,
): Promise<BoardLists> {
  // A board of 50,000 tasks takes seconds to write: the loop gets a turn every few milliseconds.
  const turns = new LoopTurns();
  // Indexed here, between turns too: 50,000 rows put in a Map in one go held the loop for tens of
  // milliseconds on a slow day.
  const fresh = new Map<string, ListRow>();
  for (let i = 0; i < freshRows.length; i++) {
    if (i % 1024 === 0 && turns.due()) await turns.next();
    fresh.set(freshRows[i].id, freshRows[i]);
  }
  const reusable = previous && previous.projectKey === projectKey ? previous.pieces : null;
  const work: Work[] = [];
  for (const o of order) {
    if (turns.due()) await turns.next();
    const prev = reusable?.get(o.id);
    if (prev && prev.x === o.x) {
      work.push({ id: o.id, number: prev.number, parent_id: prev.parent_id, archived: prev.archived, prev, row: null, values: prev.values });
      continue;
    }
    const row = fresh.get(o.id);
    if (row) work.push({ id: row.id, number: row.number, parent_id: row.parent_id, archived: row.archived !== null, prev: null, row, values: null });
  }
  const { byId, checklistOf, commentsOf, blockersOf, partsOf } = await indexRelatedInTurns(work, related, turns);
  // Values are parsed only where a rule reads them: blockers and parts (is it over?).
  const valuesOf = (w: Work): TaskValues => (w.values ??= JSON.parse(valuesText(w)) as TaskValues);
  const key = (n: number) => JSON.stringify(taskKey(projectKey, n));

  const pieces = new Map<string, Piece>();
  const placed: (readonly [Work, Piece])[] = [];
  const live = new ListWriter();
  const archived = new ListWriter();
  for (const w of work) {
    if (turns.due()) await turns.next();
    const piece: Piece = { x: w.prev ? w.prev.x : w.row.x, number: w.number, parent_id: w.parent_id, archived: w.archived, list: EMPTY, off: 0, len: 0, tail: '', valuesText: null, values: null };
    pieces.set(w.id, piece);
    placed.push([w, piece]);
    if (w.archived) {
      if (w.prev) {
        archived.copy(piece, w.prev.list, w.prev.off, w.prev.len);
        piece.valuesText = w.prev.valuesText;
      } else {
        // A fresh row counts as archived only when its archived_at is set (see the loop above).
        const archivedAt = w.row.archived ?? brokenInvariant('an archived task\'s row has archived_at');
        archived.text(piece, `${common(w.row, key)},${jsonMembers(ARCHIVED_TASK_TAIL_FIELDS, { archivedAt: `"${iso(archivedAt)}"` })}}`);
        piece.valuesText = w.row.values_text;
      }
      continue;
    }
    const blockers = (blockersOf.get(w.id) ?? [])
      .map((id) => byId.get(id))
      .filter((b): b is Work => b !== undefined && !isOver(valuesOf(b), doneWhen))
      .sort((a, b) => a.number - b.number)
      .map((b) => taskKey(projectKey, b.number));
    const parts = partsOf.get(w.id) ?? [];
    const checklist = checklistOf.get(w.id);
    const tail = `,${jsonMembers(LIVE_TASK_TAIL_FIELDS, {
      checklistTotal: String(checklist?.total ?? 0),
      checklistDone: String(checklist?.done ?? 0),
      commentCount: String(commentsOf.get(w.id) ?? 0),
      blockedBy: JSON.stringify(blockers),
      parts: JSON.stringify(countParts(parts.map((p) => ({ values: valuesOf(p), archived: p.archived })), doneWhen)),
    })}}`;
    piece.tail = tail;
    const prev = w.prev;
    if (prev && prev.tail === tail) live.copy(piece, prev.list, prev.off, prev.len);
    else if (prev) live.copy(piece, prev.list, prev.off, prev.len - Buffer.byteLength(prev.tail), tail);
    else {
      const r = w.row;
      const own = jsonMembers(LIVE_TASK_ROW_FIELDS, { createdAt: `"${iso(r.created)}"`, updatedAt: `"${iso(r.updated)}"`, archivedAt: 'null', values: r.values_text });
      live.text(piece, `${common(r, key)},${own}${tail}`);
    }
  }
  const tasksJson = await live.finish(turns);
  const archivedJson = await archived.finish(turns);
  // Keep the values parsed on the way (blockers, parts) for the next build.
  for (const [w, piece] of placed) if (w.values) piece.values = w.values;
  const third = live.pieces.length > 3 ? live.pieces[2] : null;
  return {
    projectKey,
    tasksJson,
    archivedJson,
    firstThreeJson: third ? Buffer.concat([tasksJson.subarray(0, third.off + third.len), CLOSE]) : tasksJson,
    taskCount: live.pieces.length,
    pieces,
  };
}

const EMPTY = Buffer.alloc(0);
const CLOSE = Buffer.from(']');
/** Characters of written text a list keeps before it hands them to its ranges (see ListWriter.text). */
const PENDING_CHARS = 256 * 1024;

/**
 * Writes `[piece,piece,…]` into one buffer, and points each piece at its place there. Pieces
 * copied from an earlier list that sat next to each other there are copied as one range, so a
 * build after a small change is a few large copies.
 */
class ListWriter {
  readonly pieces: Piece[] = [];
  private size = 1;
  private pending = '[';
  private readonly ops: (string | { src: Buffer; start: number; end: number })[] = [];

  /** A piece from `src`, optionally with its end replaced by `tail`. */
  copy(piece: Piece, src: Buffer, start: number, len: number, tail?: string): void {
    const comma = this.pieces.push(piece) > 1;
    const last = this.ops[this.ops.length - 1];
    if (comma && this.pending === '' && last !== undefined && typeof last !== 'string' && last.src === src && last.end + 1 === start) {
      last.end = start + len; // the comma between them comes along
    } else {
      if (comma) this.pending += ',';
      this.flush();
      this.ops.push({ src, start, end: start + len });
    }
    piece.off = this.size + (comma ? 1 : 0);
    piece.len = len;
    if (tail !== undefined) {
      this.pending = tail;
      piece.len += Buffer.byteLength(tail);
    }
    this.size = piece.off + piece.len;
  }

  text(piece: Piece, json: string): void {
    const comma = this.pieces.push(piece) > 1;
    if (comma) this.pending += ',';
    this.pending += json;
    piece.off = this.size + (comma ? 1 : 0);
    piece.len = Buffer.byteLength(json);
    this.size = piece.off + piece.len;
    // Written text goes out in pieces of about 256 KB, so that finish() encodes none for long.
    if (this.pending.length > PENDING_CHARS) this.flush();
  }

  /** The list's bytes, written a range at a time between turns of the loop. */
  async finish(turns: LoopTurns): Promise<Buffer> {
    this.pending += ']';
    this.size += 1;
    this.flush();
    const out = Buffer.allocUnsafe(this.size);
    let at = 0;
    for (const op of this.ops) {
      if (turns.due()) await turns.next();
      at += typeof op === 'string' ? out.write(op, at) : op.src.copy(out, at, op.start, op.end);
    }
    for (let i = 0; i < this.pieces.length; i++) {
      if (i % 4096 === 0 && turns.due()) await turns.next();
      this.pieces[i].list = out;
    }
    return out;
  }

  private flush(): void {
    if (this.pending !== '') this.ops.push(this.pending);
    this.pending = '';
  }
}

function valuesText(w: Work): string {
  if (w.row) return w.row.values_text;
  const p = w.prev;
  // An archived piece was given its row's values text when it was placed.
  if (p.archived) return p.valuesText ?? brokenInvariant('an archived piece keeps its values text');
  const from = p.list.indexOf(VALUES_MARK, p.off) + VALUES_MARK.length;
  return p.list.toString('utf8', from, p.off + p.len - Buffer.byteLength(p.tail));
}

function common(r: ListRow, key: (n: number) => string): string {
  const head = jsonMembers(TASK_HEAD_FIELDS, {
    id: `"${r.id}"`,
    number: String(r.number),
    key: key(r.number),
    title: JSON.stringify(r.title),
    description: JSON.stringify(r.description),
    position: JSON.stringify(r.position),
  });
  return `{${head}`;
}

/** indexRelated for a whole board: the same lookups, built between turns of the event loop. */
async function indexRelatedInTurns(rows: readonly Work[], related: ListRelated, turns: LoopTurns) {
  const byId = new Map<string, Work>();
  const partsOf = new Map<string, Work[]>();
  for (let i = 0; i < rows.length; i++) {
    if (i % 1024 === 0 && turns.due()) await turns.next();
    const r = rows[i];
    byId.set(r.id, r);
    if (!r.parent_id) continue;
    const list = partsOf.get(r.parent_id);
    if (list) list.push(r);
    else partsOf.set(r.parent_id, [r]);
  }
  const checklistOf = new Map<string, { total: number; done: number }>();
  for (let i = 0; i < related.checklists.length; i++) {
    if (i % 1024 === 0 && turns.due()) await turns.next();
    checklistOf.set(related.checklists[i].task_id, related.checklists[i]);
  }
  const commentsOf = new Map<string, number>();
  for (let i = 0; i < related.comments.length; i++) {
    if (i % 1024 === 0 && turns.due()) await turns.next();
    commentsOf.set(related.comments[i].task_id, related.comments[i].n);
  }
  const blockersOf = new Map<string, string[]>();
  for (let i = 0; i < related.links.length; i++) {
    if (i % 1024 === 0 && turns.due()) await turns.next();
    const l = related.links[i];
    const list = blockersOf.get(l.task_id);
    if (list) list.push(l.blocker_id);
    else blockersOf.set(l.task_id, [l.blocker_id]);
  }
  return { byId, checklistOf, commentsOf, blockersOf, partsOf };
}

/** Lookups a board list is assembled from: rows by id, counts and blockers by task, parts by parent. */
export function indexRelated<R extends { id: string; parent_id: string | null }>(
  rows: readonly R[],
  checklists: readonly { task_id: string; total: number; done: number }[],
  comments: readonly { task_id: string; n: number }[],
  links: readonly TaskLinkRow[],
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
