import { Injectable } from '@nestjs/common';
import { Database } from '../database';
import { raw, Sql, sql } from '../sql';
import { ProjectExportParts, ProjectExportQuery } from './project-export.query';

/** Timestamps as the API writes them: ISO 8601 UTC with milliseconds. */
const iso = (column: string): Sql => raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** A JSON array (as text) of the `item` column of `items`, in their order. */
const list = (items: Sql): Sql => sql`(SELECT COALESCE(json_agg(x.item), '[]')::text FROM (${items}) x)`;

// Each section correlates with the project row `p`: one statement, set-based, no query per task.
const PROJECT = sql`json_build_object(
  'id', p.id, 'name', p.name, 'key', p.key, 'doneWhen', p.done_when, 'releases', p.releases, 'sprints', p.sprints,
  'dailyBudgetMicros', p.daily_budget_micros::text, 'createdAt', ${iso('p.created_at')},
  -- Person values, actors and authors name members by id; an import matches people by email.
  'members', (SELECT COALESCE(json_agg(json_build_object('id', u.id, 'kind', u.kind, 'name', u.name, 'email', u.email, 'role', m.role,
                                                         'color', u.color, 'emoji', u.emoji) ORDER BY m.position COLLATE "C", u.id), '[]')
                FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = p.id))::text`;

const PROPERTIES = list(sql`
  SELECT json_build_object('id', pp.id, 'name', pp.name, 'type', pp.type, 'position', pp.position, 'config', pp.config,
           'options', (SELECT COALESCE(json_agg(json_build_object('id', o.id, 'name', o.name, 'color', o.color, 'position', o.position,
                                'startsOn', o.starts_on, 'targetOn', o.target_on, 'note', o.note, 'shippedAt', o.shipped_at)
                                ORDER BY o.position COLLATE "C", o.id), '[]')
                         FROM options o WHERE o.project_id = pp.project_id AND o.property_id = pp.id)) AS item
    FROM properties pp WHERE pp.project_id = p.id ORDER BY pp.position COLLATE "C", pp.id`);

const VIEWS = list(sql`
  SELECT json_build_object('id', v.id, 'name', v.name, 'kind', v.kind, 'groupById', v.group_by_id, 'position', v.position,
           'isDefault', v.is_default, 'filters', v.filters, 'sort', v.sort, 'cardView', v.card_view) AS item
    FROM views v WHERE v.project_id = p.id ORDER BY v.position COLLATE "C", v.id`);

const TASKS = list(sql`
  SELECT json_build_object('id', t.id, 'number', t.number, 'title', t.title, 'description', t.description, 'position', t.position,
           'values', t."values", 'parentId', t.parent_id, 'createdBy', t.created_by, 'createdAt', ${iso('t.created_at')},
           'updatedAt', ${iso('t.updated_at')}, 'archivedAt', ${iso('t.archived_at')}, 'deletedAt', ${iso('t.deleted_at')},
           'blockers', (SELECT COALESCE(json_agg(l.blocker_id ORDER BY l.created_at, l.blocker_id), '[]') FROM task_links l
                         WHERE l.project_id = t.project_id AND l.task_id = t.id),
           'checklist', (SELECT COALESCE(json_agg(json_build_object('id', c.id, 'text', c.text, 'done', c.done, 'position', c.position,
                                'createdAt', ${iso('c.created_at')}) ORDER BY c.position COLLATE "C", c.id), '[]')
                          FROM checklist_items c WHERE c.project_id = t.project_id AND c.task_id = t.id),
           'comments', (SELECT COALESCE(json_agg(json_build_object('id', c.id, 'body', c.body, 'createdAt', ${iso('c.created_at')},
                                'editedAt', ${iso('c.edited_at')},
                                'author', json_build_object('id', c.author_id, 'name', u.name, 'email', u.email, 'kind', u.kind))
                                ORDER BY c.created_at, c.id), '[]')
                         FROM comments c LEFT JOIN users u ON u.id = c.author_id WHERE c.project_id = t.project_id AND c.task_id = t.id),
           'shipped', (SELECT COALESCE(json_agg(json_build_object('optionId', s.option_id, 'shipId', s.ship_id) ORDER BY s.option_id), '[]')
                        FROM ship_tasks s WHERE s.project_id = t.project_id AND s.task_id = t.id),
           'sources', (SELECT COALESCE(json_agg(s.source_id ORDER BY s.source_id), '[]')
                        FROM task_sources s WHERE s.project_id = t.project_id AND s.task_id = t.id)) AS item
    FROM tasks t WHERE t.project_id = p.id ORDER BY t.number`);

const RUNS = list(sql`
  SELECT json_build_object('id', r.id, 'taskId', r.task_id, 'agent', json_build_object('id', r.agent_id, 'name', u.name),
           'status', r.status, 'goal', r.goal, 'step', r.step, 'steps', r.steps, 'stepIndex', r.step_index, 'control', r.control,
           'log', r.log, 'question', r.question, 'links', r.links, 'model', r.model,
           'inputTokens', r.input_tokens::text, 'outputTokens', r.output_tokens::text, 'costMicros', r.cost_micros::text,
           'startedAt', ${iso('r.started_at')}, 'updatedAt', ${iso('r.updated_at')}, 'endedAt', ${iso('r.ended_at')},
           'days', (SELECT COALESCE(json_agg(json_build_object('day', d.day, 'agentId', d.agent_id, 'inputTokens', d.input_tokens::text,
                             'outputTokens', d.output_tokens::text, 'costMicros', d.cost_micros::text) ORDER BY d.day), '[]')
                      FROM usage_days d WHERE d.project_id = r.project_id AND d.run_id = r.id)) AS item
    FROM runs r LEFT JOIN users u ON u.id = r.agent_id WHERE r.project_id = p.id ORDER BY r.started_at, r.id`);

const ACTIVITY = list(sql`
  SELECT json_build_object('id', a.id, 'taskId', a.task_id, 'actorId', a.actor_id, 'kind', a.kind, 'data', a.data,
           'createdAt', ${iso('a.created_at')}) AS item
    FROM activity a WHERE a.project_id = p.id ORDER BY a.created_at, a.id`);

const ATTACHMENTS = list(sql`
  SELECT json_build_object('id', f.id, 'taskId', f.task_id, 'uploaderId', f.uploader_id, 'name', f.name, 'mime', f.mime,
           'size', f.size, 'width', f.width, 'height', f.height, 'createdAt', ${iso('f.created_at')}) AS item
    FROM attachments f WHERE f.project_id = p.id AND f.state = 'ready' ORDER BY f.created_at, f.id`);

type PartsRow = { [K in keyof ProjectExportParts as K extends 'cardView' ? 'card_view' : K]: string };

/** The export in one statement, each part as JSON text from PostgreSQL. */
@Injectable()
export class PgProjectExportQuery extends ProjectExportQuery {
  constructor(private readonly db: Database) {
    super();
  }

  /** Null when there is no such project. One statement, so every part is read in the same snapshot. */
  async parts(projectId: string): Promise<ProjectExportParts | null> {
    const row = await this.db.one<PartsRow>(sql`
      SELECT p.key, ${PROJECT} AS project, COALESCE(p.card_view, '{}'::jsonb)::text AS card_view,
             json_build_object('text', p.rules_text, 'updatedAt', ${iso('p.rules_updated_at')})::text AS rules,
             ${PROPERTIES} AS properties, ${VIEWS} AS views, ${TASKS} AS tasks, ${RUNS} AS runs,
             ${ACTIVITY} AS activity, ${ATTACHMENTS} AS attachments
        FROM projects p WHERE p.id = ${projectId}`);
    if (!row) return null;
    const { card_view: cardView, ...rest } = row;
    return { ...rest, cardView };
  }
}
