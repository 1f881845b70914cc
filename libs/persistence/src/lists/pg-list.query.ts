import { Injectable } from '@nestjs/common';
import { brokenInvariant } from '@board/kernel';
import { DoneWhen } from '@board/tasks';
import { Database } from '../database';
import { raw, Sql, sql } from '../sql';
import { BoardRow } from '../tasks/task.query';
import { boardTasksAcross } from '../tasks/pg-task.query';
import { ListedTask, ListQuery, ListSummary } from './list.query';
import { boardTaskColumns } from '../tasks/tasks.table';

/**
 * The tasks of a list the reader can see: in it, not deleted, in a project the reader is a member
 * of (the reader owns the list). The others stay in the list, hidden.
 */
const seen = (listId: string, userId: string): Sql => sql`seen AS (
  SELECT lt.task_id, lt.project_id, lt.position
    FROM lists l
    JOIN list_tasks lt ON lt.list_id = l.id
    JOIN members m ON m.project_id = lt.project_id AND m.user_id = l.user_id
    JOIN tasks t ON t.project_id = lt.project_id AND t.id = lt.task_id AND t.deleted_at IS NULL
   WHERE l.id = ${listId} AND l.user_id = ${userId})`;

const SUMMARY = raw(`SELECT l.id, l.name,
        (SELECT count(*)::int FROM list_tasks lt
           JOIN members m ON m.project_id = lt.project_id AND m.user_id = l.user_id
           JOIN tasks t ON t.project_id = lt.project_id AND t.id = lt.task_id AND t.deleted_at IS NULL
          WHERE lt.list_id = l.id) AS count,
        l.created_at AS "createdAt"
   FROM lists l`);

/** The list reads in SQL: a fixed handful of queries in one round, whatever the number of projects. */
@Injectable()
export class PgListQuery extends ListQuery {
  constructor(private readonly db: Database) {
    super();
  }

  async summaries(userId: string): Promise<ListSummary[]> {
    return this.db.query<ListSummary>(sql`${SUMMARY} WHERE l.user_id = ${userId} ORDER BY l.position COLLATE "C", l.id`);
  }

  async summary(userId: string, listId: string): Promise<ListSummary | null> {
    return this.db.one<ListSummary>(sql`${SUMMARY} WHERE l.user_id = ${userId} AND l.id = ${listId}`);
  }

  /** The list and its visible tasks in the list's order, each in the board's task shape plus its project. */
  async read(userId: string, listId: string): Promise<{ list: ListSummary; tasks: ListedTask[] } | null> {
    const visible = seen(listId, userId);
    const columns = boardTaskColumns('t.');
    const [lists, order, rows, checklists, comments, links] = await Promise.all([
      this.summary(userId, listId).then((s) => (s ? [s] : [])),
      this.db.query<{ task_id: string; project_id: string; key: string; done_when: DoneWhen | null }>(
        sql`WITH ${visible} SELECT s.task_id, s.project_id, p.key, p.done_when FROM seen s JOIN projects p ON p.id = s.project_id
          ORDER BY s.position COLLATE "C", s.task_id`,
      ),
      // The tasks, their parts and their blockers: what blockedBy and parts are counted from.
      this.db.query<BoardRow & { project_id: string }>(
        sql`WITH ${visible}
         SELECT ${columns}, t.project_id FROM seen s JOIN tasks t ON t.project_id = s.project_id AND t.id = s.task_id
         UNION
         SELECT ${columns}, t.project_id FROM seen s JOIN tasks t ON t.project_id = s.project_id AND t.parent_id = s.task_id
          WHERE t.deleted_at IS NULL
         UNION
         SELECT ${columns}, t.project_id
           FROM seen s JOIN task_links k ON k.project_id = s.project_id AND k.task_id = s.task_id
           JOIN tasks t ON t.project_id = k.project_id AND t.id = k.blocker_id
          WHERE t.deleted_at IS NULL`,
      ),
      this.db.query<{ task_id: string; total: number; done: number }>(
        sql`WITH ${visible} SELECT c.task_id, count(*)::int AS total, count(*) FILTER (WHERE c.done)::int AS done
           FROM seen s JOIN checklist_items c ON c.project_id = s.project_id AND c.task_id = s.task_id GROUP BY c.task_id`,
      ),
      this.db.query<{ task_id: string; n: number }>(
        sql`WITH ${visible} SELECT c.task_id, count(*)::int AS n FROM seen s JOIN comments c ON c.project_id = s.project_id AND c.task_id = s.task_id GROUP BY c.task_id`,
      ),
      this.db.query<{ task_id: string; blocker_id: string }>(
        sql`WITH ${visible} SELECT k.task_id, k.blocker_id FROM seen s JOIN task_links k ON k.project_id = s.project_id AND k.task_id = s.task_id`,
      ),
    ]);
    if (lists.length === 0) return null;
    const facts = new Map(order.map((o) => [o.project_id, { key: o.key, doneWhen: o.done_when }]));
    const tasks = boardTasksAcross(rows, { checklists, comments, links }, order.map((o) => o.task_id), facts).map((t) => ({
      ...t,
      // boardTasksAcross answers tasks of the projects in `facts` only.
      projectKey: (facts.get(t.projectId) ?? brokenInvariant('a task on the list is of a project the read saw')).key,
      archived: t.archivedAt !== null,
    }));
    // The count says what the read shows (a task deleted between the queries is in neither).
    return { list: { ...lists[0], count: tasks.length }, tasks };
  }
}
