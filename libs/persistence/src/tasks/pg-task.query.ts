import { Injectable } from '@nestjs/common';
import { countParts, DELETION_WINDOW_DAYS, DELETION_WINDOW_MS, DoneWhen, isOver, taskKey } from '@board/tasks';
import { Database } from '../database';
import { userJson } from '../accounts/users.table';
import { ACTIVITY_LINE_COLUMNS } from '../activity/activity.table';
import { compileOnce, raw, Sql, sql } from '../sql';
import { LoopTurns } from '../loop-turns';
import { BoardLists, buildBoardLists, indexRelated } from './board-lists';
import { ROW_VERSION, xminFingerprint } from './fingerprint.sql';
import { ARCHIVED_TASK_FIELDS, ArchivedTaskField, BOARD_TASK_FIELDS, BoardTaskField, ordered } from './board-task.fields';
import { taskLinkColumns, TaskLinkRow } from './task-links.table';
import { boardColumnText, BoardRow, boardTaskColumns, LIST_COLUMNS, linkTaskColumns, LinkTaskRow, ListRow } from './tasks.table';
import { ArchivedHits, ArchivedTask, BoardTask, CreatedTask, DeletedTasks, FullTask, LinkRow, TaskQuery } from './task.query';

// Compiled once: the text is also the prepared statement's key.
const BOARD_FINGERPRINT = compileOnce<'projectId'>(
  (slot) =>
    sql`SELECT ${xminFingerprint(slot('projectId'), [
      { table: 'tasks', where: 'deleted_at IS NULL' },
      { table: 'checklist_items' },
      { table: 'comments' },
      { table: 'task_links' },
    ])} AS fp`,
);

const BOARD_COLUMNS = boardTaskColumns();
/** Changed rows a board build reads by id; past this it reads the project's rows (see boardLists). */
const MAX_CHANGED_IDS = 2_000;
const BOARD_COLUMNS_OF_T = boardTaskColumns('t.');
const NO_SQL = raw('');

/** Compile-time: the answer types carry exactly the fields board-task.fields.ts lists. */
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const boardTaskFieldsListed: Exactly<keyof BoardTask, BoardTaskField> = true;
const archivedTaskFieldsListed: Exactly<keyof ArchivedTask, ArchivedTaskField> = true;
void boardTaskFieldsListed;
void archivedTaskFieldsListed;

/** The task reads in SQL: a fixed handful of set-based queries per read, never one per task. */
@Injectable()
export class PgTaskQuery extends TaskQuery {
  constructor(private readonly db: Database) {
    super();
  }

  /**
   * Live tasks in the one global rank order, and archived ones, with counts, blockers and parts,
   * as JSON. Given the lists built before for this project, only the rows written since (another
   * row version) are read in full; the others keep their JSON (bench/README.md, finding 12).
   */
  async boardLists(projectId: string, projectKey: string, doneWhen: DoneWhen | null, previous: BoardLists | null): Promise<BoardLists> {
    const ordered = sql`FROM tasks WHERE project_id = ${projectId} AND deleted_at IS NULL ORDER BY position COLLATE "C", id`;
    const relatedRows = this.related(projectId, null).then(([checklists, comments, links]) => ({ checklists, comments, links }));
    if (!previous || previous.projectKey !== projectKey) {
      const [rows, related] = await Promise.all([this.db.query<ListRow>(sql`SELECT ${LIST_COLUMNS} ${ordered}`, { prepare: true }), relatedRows]);
      return buildBoardLists(rows, rows, null, related, projectKey, doneWhen);
    }
    const [order, related] = await Promise.all([
      this.db.query<{ id: string; x: string }>(sql`SELECT id, ${ROW_VERSION} AS x ${ordered}`, { prepare: true }),
      relatedRows,
    ]);
    // Compared between turns of the loop: 50,000 lookups in one go held it for tens of milliseconds on a slow day.
    const changed: string[] = [];
    const turns = new LoopTurns();
    for (let i = 0; i < order.length; i++) {
      if (i % 1024 === 0 && turns.due()) await turns.next();
      if (previous.pieces.get(order[i].id)?.x !== order[i].x) changed.push(order[i].id);
    }
    // Most rows changed (a board read empty, then filled by an import): sending tens of thousands
    // of ids back costs more than reading the project's rows.
    const rows =
      changed.length === 0
        ? []
        : changed.length > MAX_CHANGED_IDS
          ? await this.db.query<ListRow>(sql`SELECT ${LIST_COLUMNS} FROM tasks WHERE project_id = ${projectId} AND deleted_at IS NULL`, { prepare: true })
          : await this.db.query<ListRow>(sql`SELECT ${LIST_COLUMNS} FROM tasks WHERE project_id = ${projectId} AND id = ANY(${changed}::uuid[]) AND deleted_at IS NULL`, {
              prepare: true,
            });
    return buildBoardLists(order, rows, previous, related, projectKey, doneWhen);
  }

  /** The xmin fingerprint (fingerprint.sql.ts) of everything the board's task lists are made of. */
  async boardFingerprint(projectId: string): Promise<string> {
    const row = await this.db.single<{ fp: string }>(BOARD_FINGERPRINT.text, BOARD_FINGERPRINT.values({ projectId }), { prepare: true });
    return row.fp;
  }

  /** The board fields of some tasks (a create answer, the view read), in rank order. */
  async boardTasks(projectId: string, projectKey: string, doneWhen: DoneWhen | null, ids: string[]): Promise<BoardTask[]> {
    if (ids.length === 0) return [];
    const [rows, related, [checklists, comments, links]] = await Promise.all([
      this.db.query<BoardRow>(
        sql`SELECT ${BOARD_COLUMNS} FROM tasks WHERE project_id = ${projectId} AND deleted_at IS NULL AND id = ANY(${ids}::uuid[]) ORDER BY position COLLATE "C", id`,
      ),
      // Blockers and parts of those tasks, for blockedBy and parts.
      // Two index paths joined with UNION: an OR of them made PostgreSQL scan the whole project.
      this.db.query<BoardRow>(
        sql`SELECT ${BOARD_COLUMNS} FROM tasks WHERE project_id = ${projectId} AND deleted_at IS NULL AND parent_id = ANY(${ids}::uuid[])
         UNION
         SELECT ${BOARD_COLUMNS_OF_T}
           FROM task_links l JOIN tasks t ON t.project_id = l.project_id AND t.id = l.blocker_id
          WHERE l.project_id = ${projectId} AND l.task_id = ANY(${ids}::uuid[]) AND t.deleted_at IS NULL`,
      ),
      this.related(projectId, ids),
    ]);
    const wanted = new Set(rows.map((r) => r.id));
    const all = [...rows, ...related.filter((r) => !wanted.has(r.id))];
    // An archived task read by id still answers in the board shape.
    const { tasks } = assemble(all, checklists, comments, links, projectKey, doneWhen, wanted, 'board');
    const byId = new Map(tasks.map((t) => [t.id, t]));
    return rows.map((r) => byId.get(r.id)).filter((t): t is BoardTask => t !== undefined);
  }

  /** The board fields of a task just created, which has no parts, links, checklist or comments yet: no query. */
  newTask(task: CreatedTask, projectKey: string, doneWhen: DoneWhen | null): BoardTask {
    const row: BoardRow = {
      id: task.id,
      number: task.number,
      title: task.title,
      description: task.description,
      position: task.position,
      created_at: task.createdAt,
      updated_at: task.createdAt,
      archived_at: null,
      values: task.values,
      parent_id: null,
    };
    return assemble([row], [], [], [], projectKey, doneWhen, null).tasks[0];
  }

  /** Checklist counts, comment counts and blocker links of the project's tasks (or only of `ids`). */
  private related(projectId: string, ids: string[] | null) {
    const only = ids ? sql` AND task_id = ANY(${ids}::uuid[])` : NO_SQL;
    return Promise.all([
      this.db.query<{ task_id: string; total: number; done: number }>(
        sql`SELECT task_id, count(*)::int AS total, count(*) FILTER (WHERE done)::int AS done
           FROM checklist_items WHERE project_id = ${projectId}${only} GROUP BY task_id`,
      ),
      this.db.query<{ task_id: string; n: number }>(sql`SELECT task_id, count(*)::int AS n FROM comments WHERE project_id = ${projectId}${only} GROUP BY task_id`),
      this.db.query<TaskLinkRow>(sql`SELECT ${taskLinkColumns()} FROM task_links WHERE project_id = ${projectId}${only}`),
    ]);
  }

  /** One task in full: links both ways, parent, children, checklist, comments, recent activity. */
  async full(projectId: string, projectKey: string, doneWhen: DoneWhen | null, taskId: string): Promise<FullTask | null> {
    const [board] = await this.boardTasks(projectId, projectKey, doneWhen, [taskId]);
    if (!board) return null;
    const [blockedBy, blocks, parentRows, children, checklist, comments, activity] = await Promise.all([
      this.linkRows(
        sql`SELECT ${linkTaskColumns('t')} FROM task_links l JOIN tasks t ON t.project_id = l.project_id AND t.id = l.blocker_id
          WHERE l.project_id = ${projectId} AND l.task_id = ${taskId} AND t.deleted_at IS NULL ORDER BY t.position COLLATE "C", t.id`,
        projectKey, doneWhen,
      ),
      this.linkRows(
        sql`SELECT ${linkTaskColumns('t')} FROM task_links l JOIN tasks t ON t.project_id = l.project_id AND t.id = l.task_id
          WHERE l.project_id = ${projectId} AND l.blocker_id = ${taskId} AND t.deleted_at IS NULL ORDER BY t.position COLLATE "C", t.id`,
        projectKey, doneWhen,
      ),
      this.linkRows(
        sql`SELECT ${linkTaskColumns('p')} FROM tasks c JOIN tasks p ON p.project_id = c.project_id AND p.id = c.parent_id
          WHERE c.project_id = ${projectId} AND c.id = ${taskId} AND p.deleted_at IS NULL`,
        projectKey, doneWhen,
      ),
      this.linkRows(
        sql`SELECT ${linkTaskColumns('t')} FROM tasks t
          WHERE t.project_id = ${projectId} AND t.parent_id = ${taskId} AND t.deleted_at IS NULL ORDER BY t.position COLLATE "C", t.id`,
        projectKey, doneWhen,
      ),
      this.db.query(
        sql`SELECT id, text, done, position FROM checklist_items WHERE project_id = ${projectId} AND task_id = ${taskId} ORDER BY position COLLATE "C", id`,
      ),
      this.db.query(
        sql`SELECT c.id, c.task_id AS "taskId", c.author_id AS "authorId", c.body, c.created_at AS "createdAt", c.edited_at AS "editedAt",
                ${userJson('u')} AS author
           FROM comments c LEFT JOIN users u ON u.id = c.author_id
          WHERE c.project_id = ${projectId} AND c.task_id = ${taskId} ORDER BY c.created_at, c.id`,
      ),
      this.db.query(
        sql`SELECT ${ACTIVITY_LINE_COLUMNS},
                ${userJson('u')} AS actor
           FROM activity a LEFT JOIN users u ON u.id = a.actor_id
          WHERE a.project_id = ${projectId} AND a.task_id = ${taskId} AND a.kind NOT IN ('reset', 'rules')
          ORDER BY a.created_at DESC, a.id DESC LIMIT 60`,
      ),
    ]);
    return {
      ...board,
      links: { blockedBy, blocks },
      parent: parentRows[0] ?? null,
      children,
      checklist,
      comments,
      activity,
    };
  }

  /** Deleted tasks still inside their window, newest first. */
  async deleted(projectId: string, projectKey: string, now: Date): Promise<DeletedTasks> {
    const rows = await this.db.query<{ id: string; number: number; title: string; position: string; deleted_at: Date }>(
      sql`SELECT id, number, title, position, deleted_at FROM tasks
        WHERE project_id = ${projectId} AND deleted_at IS NOT NULL AND deleted_at > ${new Date(now.getTime() - DELETION_WINDOW_MS)}
        ORDER BY deleted_at DESC, id`,
    );
    return {
      deleted: rows.map((r) => ({
        id: r.id,
        number: r.number,
        key: taskKey(projectKey, r.number),
        title: r.title,
        position: r.position,
        deletedAt: r.deleted_at,
        goesAt: new Date(r.deleted_at.getTime() + DELETION_WINDOW_MS),
      })),
      windowDays: DELETION_WINDOW_DAYS,
    };
  }

  /** Archived tasks whose description holds every word of `q`, leaving out those whose key and title already match. */
  async searchArchived(projectId: string, projectKey: string, q: string): Promise<ArchivedHits> {
    const words = q.split(/\s+/).map((w) => w.trim()).filter(Boolean).slice(0, 20);
    if (words.length === 0) return { hits: [], total: 0 };
    const patterns = words.map((w) => `%${w.replace(/[\\%_]/g, (c) => '\\' + c)}%`);
    const rows = await this.db.query<{ id: string; number: number; title: string; description: string; position: string; archived_at: Date; total: number }>(
      sql`SELECT id, number, title, description, position, archived_at, count(*) OVER ()::int AS total
         FROM tasks
        WHERE project_id = ${projectId} AND deleted_at IS NULL AND archived_at IS NOT NULL
          AND description ILIKE ALL (${patterns}::text[])
          AND NOT ((${projectKey}::text || '-' || number::text || ' ' || title) ILIKE ALL (${patterns}::text[]))
        ORDER BY archived_at DESC, id
        LIMIT 12`,
    );
    return {
      hits: rows.map((r) => ({
        task: { id: r.id, number: r.number, key: taskKey(projectKey, r.number), title: r.title, position: r.position, archivedAt: r.archived_at },
        snippet: snippet(r.description, words),
      })),
      total: rows[0]?.total ?? 0,
    };
  }

  private async linkRows(query: Sql, projectKey: string, doneWhen: DoneWhen | null): Promise<LinkRow[]> {
    const rows = await this.db.query<LinkTaskRow>(query);
    return rows.map((r) => ({ id: r.id, key: taskKey(projectKey, r.number), title: r.title, over: isOver(r.values ?? {}, doneWhen) }));
  }
}

/**
 * Board-shaped tasks of several projects at once (a person's list): `rows` holds the wanted tasks
 * with their blockers and parts, each with its `project_id`; `facts` the key and doneWhen of each
 * project. Answers the `wanted` ones in that order, archived ones in the board shape too.
 */
export function boardTasksAcross(
  rows: readonly (BoardRow & { project_id: string })[],
  related: { checklists: { task_id: string; total: number; done: number }[]; comments: { task_id: string; n: number }[]; links: TaskLinkRow[] },
  wanted: readonly string[],
  facts: ReadonlyMap<string, { key: string; doneWhen: DoneWhen | null }>,
): (BoardTask & { projectId: string })[] {
  const { byId, checklistOf, commentsOf, blockersOf, partsOf } = indexRelated(rows, related.checklists, related.comments, related.links);
  const out: (BoardTask & { projectId: string })[] = [];
  for (const id of wanted) {
    const r = byId.get(id);
    const f = r && facts.get(r.project_id);
    if (!r || !f) continue;
    out.push({ ...boardTask(r, byId, checklistOf, commentsOf, blockersOf, partsOf, f.key, f.doneWhen), projectId: r.project_id });
  }
  return out;
}

function assemble(
  rows: BoardRow[],
  checklists: { task_id: string; total: number; done: number }[],
  comments: { task_id: string; n: number }[],
  links: TaskLinkRow[],
  projectKey: string,
  doneWhen: DoneWhen | null,
  only: Set<string> | null,
  /** How an archived task answers: apart, in the archive's shape (the board), or in the board shape (a read by id). */
  archivedAs: 'archived' | 'board' = 'archived',
): { tasks: BoardTask[]; archived: ArchivedTask[] } {
  const { byId, checklistOf, commentsOf, blockersOf, partsOf } = indexRelated(rows, checklists, comments, links);
  const tasks: BoardTask[] = [];
  const archived: ArchivedTask[] = [];
  for (const r of rows) {
    if (only && !only.has(r.id)) continue;
    if (r.archived_at && archivedAs === 'archived') {
      archived.push(ordered(ARCHIVED_TASK_FIELDS, { id: r.id, number: r.number, key: taskKey(projectKey, r.number), title: r.title, description: r.description, position: r.position, archivedAt: r.archived_at }));
      continue;
    }
    tasks.push(boardTask(r, byId, checklistOf, commentsOf, blockersOf, partsOf, projectKey, doneWhen));
  }
  return { tasks, archived };
}

function boardTask(
  r: BoardRow,
  byId: Map<string, BoardRow>,
  checklistOf: Map<string, { total: number; done: number }>,
  commentsOf: Map<string, number>,
  blockersOf: Map<string, string[]>,
  partsOf: Map<string, BoardRow[]>,
  projectKey: string,
  doneWhen: DoneWhen | null,
): BoardTask {
  const blockers = (blockersOf.get(r.id) ?? [])
    .map((id) => byId.get(id))
    .filter((b): b is BoardRow => b !== undefined && !isOver(b.values ?? {}, doneWhen))
    .sort((a, b) => a.number - b.number);
  const parts = partsOf.get(r.id) ?? [];
  return ordered(BOARD_TASK_FIELDS, {
    id: r.id,
    number: r.number,
    key: taskKey(projectKey, r.number),
    title: r.title,
    description: r.description,
    position: r.position,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    archivedAt: r.archived_at,
    values: r.values ?? {},
    checklistTotal: checklistOf.get(r.id)?.total ?? 0,
    checklistDone: checklistOf.get(r.id)?.done ?? 0,
    commentCount: commentsOf.get(r.id) ?? 0,
    blockedBy: blockers.map((b) => taskKey(projectKey, b.number)),
    parts: countParts(parts.map((p) => ({ values: p.values ?? {}, archived: p.archived_at !== null })), doneWhen),
  });
}

/** A short piece of the description around the first word that matched. */
function snippet(text: string, words: string[]): string {
  const lower = text.toLowerCase();
  const at = Math.min(...words.map((w) => lower.indexOf(w.toLowerCase())).filter((i) => i >= 0));
  const start = Math.max(0, at - 60);
  const end = Math.min(text.length, at + 140);
  return (start > 0 ? '…' : '') + text.slice(start, end).replace(/\s+/g, ' ').trim() + (end < text.length ? '…' : '');
}
