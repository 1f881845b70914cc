#!/usr/bin/env node
'use strict';
/**
 * EXPLAIN ANALYZE of the statements the benchmark found on its hot paths, against a database the
 * bench kept (BENCH_KEEP_DB=1 npm run bench prints its URL). Statements that write run inside a
 * transaction that is rolled back.
 *
 *   node bench/explain.js postgres://postgres@127.0.0.1:5432/tb_bench_… [PROJECT_KEY=BIG] [--full]
 *
 * The statement texts are copied from libs/persistence (task.queries.ts, typeorm-task.repository.ts,
 * webhook.store.ts); keep them in step when those change.
 */
const { Client } = require('pg');

const url = process.argv[2];
const key = process.argv[3] && !process.argv[3].startsWith('--') ? process.argv[3] : 'BIG';
const full = process.argv.includes('--full');
if (!url) {
  console.error('usage: node bench/explain.js <database-url> [PROJECT_KEY] [--full]');
  process.exit(2);
}

const STATEMENTS = [
  {
    name: 'board: live and archived tasks (task.queries.ts board)',
    sql: `SELECT id, number, title, description, position, created_at, updated_at, archived_at, "values", parent_id
            FROM tasks WHERE project_id = $1 AND deleted_at IS NULL ORDER BY position COLLATE "C", id`,
    params: (c) => [c.project],
  },
  {
    name: 'board: checklist counts',
    sql: `SELECT task_id, count(*)::int AS total, count(*) FILTER (WHERE done)::int AS done
            FROM checklist_items WHERE project_id = $1 GROUP BY task_id`,
    params: (c) => [c.project],
  },
  {
    name: 'create: the rank at the end (pg-task.repository.ts edgeRank; board_rank_gap for a move to the end)',
    sql: `SELECT position FROM tasks WHERE project_id = $1 AND id <> $2 ORDER BY position COLLATE "C" DESC LIMIT 1`,
    params: (c) => [c.project, '00000000-0000-0000-0000-000000000000'],
  },
  {
    name: 'the rank at the end, variant that can use tasks_board (adds deleted_at IS NULL; see README)',
    sql: `SELECT position FROM tasks WHERE project_id = $1 AND id <> $2 AND deleted_at IS NULL ORDER BY position COLLATE "C" DESC LIMIT 1`,
    params: (c) => [c.project, '00000000-0000-0000-0000-000000000000'],
  },
  {
    name: 'move: the gap after an anchor (board_rank_gap, next key)',
    sql: `SELECT position FROM tasks WHERE project_id = $1 AND id <> $2 AND position > $3 COLLATE "C" ORDER BY position COLLATE "C" LIMIT 1`,
    params: (c) => [c.project, c.task, c.middlePosition],
  },
  {
    name: 'create answer / task read: boardTasks related rows (parts OR blockers)',
    sql: `SELECT id, number, title, description, position, created_at, updated_at, archived_at, "values", parent_id
            FROM tasks WHERE project_id = $1 AND deleted_at IS NULL
             AND (parent_id = ANY($2::uuid[])
                  OR id IN (SELECT blocker_id FROM task_links WHERE project_id = $1 AND task_id = ANY($2::uuid[])))`,
    params: (c) => [c.project, [c.task]],
  },
  {
    name: 'same, as a UNION of two index paths (proposed)',
    sql: `SELECT id, number, title, description, position, created_at, updated_at, archived_at, "values", parent_id
            FROM tasks WHERE project_id = $1 AND deleted_at IS NULL AND parent_id = ANY($2::uuid[])
          UNION
          SELECT t.id, t.number, t.title, t.description, t.position, t.created_at, t.updated_at, t.archived_at, t."values", t.parent_id
            FROM task_links l JOIN tasks t ON t.project_id = l.project_id AND t.id = l.blocker_id
           WHERE l.project_id = $1 AND l.task_id = ANY($2::uuid[]) AND t.deleted_at IS NULL`,
    params: (c) => [c.project, [c.task]],
  },
  {
    name: 'webhooks: claimDue (webhook.store.ts)',
    write: true,
    sql: `WITH due AS (
            SELECT id FROM webhook_deliveries
             WHERE status = 'pending' AND next_try_at <= $1 AND (locked_until IS NULL OR locked_until < $1)
             ORDER BY next_try_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
          UPDATE webhook_deliveries d SET locked_until = $1::timestamptz + $3::interval
            FROM due, webhooks w
           WHERE d.id = due.id AND w.id = d.webhook_id AND w.project_id = d.project_id
          RETURNING d.id`,
    params: () => [new Date(), 50, '30 seconds'],
  },
  {
    name: 'webhooks: prune keeps the newest 20 of a webhook, pending ones included (webhook.store.ts)',
    write: true,
    sql: `DELETE FROM webhook_deliveries WHERE project_id = $1 AND webhook_id = $2 AND id NOT IN (
            SELECT id FROM webhook_deliveries WHERE project_id = $1 AND webhook_id = $2 ORDER BY created_at DESC, id DESC LIMIT 20)`,
    params: (c) => [c.project, c.webhook],
    skip: (c) => !c.webhook,
  },
];

async function main() {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const project = (await db.query('SELECT id FROM projects WHERE key = $1', [key])).rows[0]?.id;
    if (!project) throw new Error(`no project with key ${key}`);
    const task = (await db.query('SELECT id FROM tasks WHERE project_id = $1 AND deleted_at IS NULL ORDER BY number DESC LIMIT 1', [project])).rows[0].id;
    const middlePosition = (await db.query(
      `SELECT position FROM tasks WHERE project_id = $1 ORDER BY position COLLATE "C" OFFSET (SELECT count(*) / 2 FROM tasks WHERE project_id = $1) LIMIT 1`,
      [project],
    )).rows[0].position;
    const webhook = (await db.query('SELECT id FROM webhooks WHERE project_id = $1 LIMIT 1', [project])).rows[0]?.id;
    const counts = (await db.query(
      `SELECT count(*) FILTER (WHERE archived_at IS NULL AND deleted_at IS NULL)::int AS live, count(*)::int AS rows FROM tasks WHERE project_id = $1`,
      [project],
    )).rows[0];
    console.log(`project ${key} (${project}): ${counts.live} live tasks, ${counts.rows} task rows`);
    const ctx = { project, task, middlePosition, webhook };
    for (const s of STATEMENTS) {
      if (s.skip?.(ctx)) continue;
      console.log(`\n== ${s.name}`);
      if (s.write) await db.query('BEGIN');
      try {
        const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${s.sql}`, s.params(ctx));
        const lines = rows.map((r) => r['QUERY PLAN']);
        const shown = full ? lines : lines.filter((l) => /(Scan|Sort|Limit|Join|Aggregate|Execution Time|Rows Removed|Sort Method|Append|Unique|Delete|Update|SubPlan)/.test(l));
        for (const l of shown) console.log(l);
      } finally {
        if (s.write) await db.query('ROLLBACK');
      }
    }
  } finally {
    await db.end();
  }
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
