import { NotificationIntent } from '@board/notifications';
import { raw, Sql, sql } from '../sql';

/** Rung at COMMIT for each new notification: the personal streams and the mail senders of every instance hear it. */
export const NOTIFICATION_CHANNEL = 'board_notifications';

/** An intent's columns, each an array in intent order (or a slot that takes one, in a statement compiled once). */
export interface IntentColumns {
  kinds: unknown;
  projects: unknown;
  tasks: unknown;
  actors: unknown;
  texts: unknown;
  runs: unknown;
  recipients: unknown;
}

/** The intents as `IntentColumns` values. */
export function intentValues(intents: readonly NotificationIntent[]): { [K in keyof IntentColumns]: unknown[] } {
  return {
    kinds: intents.map((i) => i.kind),
    projects: intents.map((i) => i.projectId),
    tasks: intents.map((i) => i.taskId),
    actors: intents.map((i) => i.actorId),
    texts: intents.map((i) => i.text),
    runs: intents.map((i) => i.runId),
    recipients: intents.map((i) => (i.recipients === null ? null : JSON.stringify(i.recipients))),
  };
}

/**
 * CTE `intent`: a write's notification intents as rows (`intentValues`). `landed`, a CTE of the
 * write's own statement, gates them on the write landing (a one-statement write); the
 * transactional path needs none.
 */
export function intentCte(c: IntentColumns, landed?: Sql): Sql {
  return sql`intent AS (
    SELECT * FROM unnest(${c.kinds}::text[], ${c.projects}::uuid[], ${c.tasks}::uuid[], ${c.actors}::uuid[],
                         ${c.texts}::text[], ${c.runs}::uuid[], ${c.recipients}::jsonb[])
           WITH ORDINALITY AS i(kind, project_id, task_id, actor_id, text, run_id, recipients, ord)
     ${landed ? sql`WHERE EXISTS (SELECT 1 FROM ${landed})` : raw('')})`;
}

/**
 * The only SQL that writes notifications: CTEs after `intentCte` that resolve each intent's
 * people, insert one row per person (`nf_ins`) and queue the mailed kinds (`nf_mail`).
 * - Explicit recipients are taken as given; `null` is the task's people: the humans its person
 *   properties name, else (none) the project's owner and admins.
 * - Only human members of the project are told, and never the intent's actor.
 * - `run_ended` reads `<status>: <step>` and, when the line had no actor (a lost run), its agent
 *   from the run the same write saved.
 * No value of its own: built once, spliced into the transactional path's statement and into any
 * one-statement write.
 */
export const NOTIFICATION_CTES: Sql = raw(`
  nf_people AS (
    SELECT i.ord, m.user_id
      FROM intent i
      JOIN tasks t ON t.project_id = i.project_id AND t.id = i.task_id
      JOIN properties p ON p.project_id = i.project_id AND p.type = 'person'
      JOIN members m ON m.project_id = i.project_id AND m.user_id::text = t."values" ->> p.id::text
      JOIN users u ON u.id = m.user_id AND u.kind = 'human'
     WHERE i.recipients IS NULL),
  nf_to AS (
    SELECT i.ord, x.id::uuid AS user_id FROM intent i, jsonb_array_elements_text(i.recipients) AS x(id) WHERE i.recipients IS NOT NULL
    UNION
    SELECT ord, user_id FROM nf_people
    UNION
    SELECT i.ord, m.user_id FROM intent i JOIN members m ON m.project_id = i.project_id AND m.role IN ('owner', 'admin')
     WHERE i.recipients IS NULL AND NOT EXISTS (SELECT 1 FROM nf_people pp WHERE pp.ord = i.ord)),
  nf_ins AS (
    INSERT INTO notifications (id, user_id, project_id, task_id, actor_id, kind, text)
    SELECT gen_random_uuid(), u.id, i.project_id, i.task_id,
           coalesce(i.actor_id, (SELECT r.agent_id FROM runs r WHERE r.project_id = i.project_id AND r.id = i.run_id)), i.kind,
           coalesce(i.text, (SELECT r.status || ': ' || r.step FROM runs r WHERE r.project_id = i.project_id AND r.id = i.run_id), '')
      FROM nf_to r
      JOIN intent i ON i.ord = r.ord
      JOIN users u ON u.id = r.user_id AND u.kind = 'human'
      JOIN members m ON m.project_id = i.project_id AND m.user_id = u.id
     WHERE u.id IS DISTINCT FROM i.actor_id
     ORDER BY i.ord
    RETURNING id, user_id, project_id, task_id, kind),
  nf_mail AS (
    INSERT INTO notification_mails (id)
    SELECT n.id FROM nf_ins n JOIN users u ON u.id = n.user_id
     WHERE n.kind IN ('question', 'mention') AND u.mail_notifications AND u.email IS NOT NULL
    RETURNING id)`);

/**
 * Select-list columns that ring each new notification on its channel (sent with the COMMIT, or
 * with the one statement outside a transaction): `told` rows written, `mailed` mails queued.
 */
export const NOTIFICATION_COLUMNS: Sql = raw(`
  (SELECT count(*) FROM nf_ins n, LATERAL (SELECT pg_notify('${NOTIFICATION_CHANNEL}',
     json_build_object('userId', n.user_id, 'id', n.id, 'kind', n.kind, 'projectId', n.project_id, 'taskId', n.task_id)::text)) x)::int AS told,
  (SELECT count(*) FROM nf_mail)::int AS mailed`);
