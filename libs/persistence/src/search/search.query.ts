import { Injectable } from '@nestjs/common';
import { taskKey } from '@board/tasks';
import { Database } from '../database';
import { raw, sql } from '../sql';
import { snippetOf, snippetWords } from './snippet';

/** Which field of a hit holds the first match, in the order the answer ranks them. */
export type SearchWhere = 'key' | 'title' | 'description' | 'comment';
const WHERE: readonly SearchWhere[] = ['key', 'title', 'description', 'comment'];

export interface SearchHit {
  task: { id: string; key: string; title: string; projectId: string; archived: boolean };
  where: SearchWhere;
  snippet: string;
}

export interface SearchResult {
  hits: SearchHit[];
  total: number;
}

/** At most this many words of a query are matched (the rest are dropped): every word is one more index lookup. */
export const SEARCH_WORDS_MAX = 16;

/** A task key as a whole query (`WEB-12`, any case): the project key's rule, a dash, a number. */
const TASK_KEY = /^([A-Za-z][A-Za-z0-9]{1,9})-(\d{1,9})$/;

/** Letters or digits: a query without any holds no words. */
const HAS_WORD = /[\p{L}\p{N}]/u;

interface HitRow {
  id: string;
  project_id: string;
  number: number;
  title: string;
  description: string;
  archived_at: Date | null;
  project_key: string;
  tier: number;
  comment: string | null;
  total: number;
}

/** Tasks in the given projects whose key, title, description or comments hold the query's words. */
const COMMENT_DOC = raw(`to_tsvector('simple'::regconfig, f_unaccent(c.body))`);

/**
 * Search over tasks (extensions.md § 4), set-based: the words are the lexemes PostgreSQL's own
 * parser reads from the query (so a query splits exactly as the text it is matched against), each
 * made a prefix term; the task documents (`task_search`, GIN) answer the tasks that hold every
 * word, the comments' index the tasks whose words are spread over their comments. One statement
 * answers the page of hits and the total.
 */
@Injectable()
export class SearchQuery {
  constructor(private readonly db: Database) {}

  /** The projects a person searches: those they are a member of, or only `projectId` (none when they are not in it). */
  async projectsOf(userId: string, projectId: string | null): Promise<string[]> {
    const rows = await this.db.query<{ project_id: string }>(
      sql`SELECT project_id FROM members WHERE user_id = ${userId} AND (${projectId}::uuid IS NULL OR project_id = ${projectId}::uuid)`,
    );
    return rows.map((r) => r.project_id);
  }

  async search(projectIds: readonly string[], q: string, limit: number): Promise<SearchResult> {
    if (projectIds.length === 0 || !HAS_WORD.test(q)) return { hits: [], total: 0 };
    const key = TASK_KEY.exec(q.trim());
    const ids = [...projectIds];
    const rows = await this.db.query<HitRow>(sql`
      WITH words AS (
        -- Each lexeme quoted as a tsquery term ('' and \\ escaped): user text never becomes query syntax.
        SELECT '''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || '''' AS term
          FROM unnest(to_tsvector('simple'::regconfig, f_unaccent(${q}::text)))
         LIMIT ${SEARCH_WORDS_MAX}),
      qs AS (
        SELECT string_agg(term || ':*', ' & ')::tsquery AS every,
               string_agg(term || ':*', ' | ')::tsquery AS some,
               string_agg(term || ':*A', ' | ')::tsquery AS in_title,
               string_agg(term || ':*B', ' | ')::tsquery AS in_description
          FROM words),
      keyed AS (
        SELECT t.id AS task_id
          FROM projects p JOIN tasks t ON t.project_id = p.id AND t.number = ${key ? Number(key[2]) : null}::int
         WHERE p.id = ANY(${ids}::uuid[]) AND p.key = ${key ? key[1].toUpperCase() : null}::text AND t.deleted_at IS NULL),
      by_task AS (
        SELECT s.task_id FROM task_search s, qs WHERE s.project_id = ANY(${ids}::uuid[]) AND s.doc @@ qs.every),
      -- Words spread over the task and its comments: a task with a comment holding some word,
      -- kept when each word is in its document or one of its comments.
      by_comments AS (
        SELECT s.task_id
          FROM (SELECT DISTINCT c.project_id, c.task_id FROM comments c, qs
                 WHERE c.project_id = ANY(${ids}::uuid[]) AND ${COMMENT_DOC} @@ qs.some) ct
          JOIN task_search s ON s.project_id = ct.project_id AND s.task_id = ct.task_id
         WHERE NOT EXISTS (
           SELECT 1 FROM words w
            WHERE NOT (s.doc @@ (w.term || ':*')::tsquery
                       OR EXISTS (SELECT 1 FROM comments c
                                   WHERE c.project_id = ct.project_id AND c.task_id = ct.task_id
                                     AND ${COMMENT_DOC} @@ (w.term || ':*')::tsquery)))),
      found AS (SELECT task_id FROM keyed UNION SELECT task_id FROM by_task UNION SELECT task_id FROM by_comments),
      ranked AS (
        SELECT t.id, t.project_id, t.number, t.title, t.description, t.archived_at, t.updated_at,
               CASE WHEN t.id IN (SELECT task_id FROM keyed) THEN 0
                    WHEN s.doc @@ qs.in_title THEN 1
                    WHEN s.doc @@ qs.in_description THEN 2
                    ELSE 3 END AS tier,
               coalesce(ts_rank(s.doc, qs.some), 0) AS rank
          FROM found f
          JOIN tasks t ON t.id = f.task_id AND t.project_id = ANY(${ids}::uuid[]) AND t.deleted_at IS NULL
          JOIN task_search s ON s.task_id = t.id AND s.project_id = t.project_id
          CROSS JOIN qs),
      page AS (
        SELECT r.*, count(*) OVER ()::int AS total FROM ranked r
         ORDER BY r.tier, r.rank DESC, r.updated_at DESC, r.id
         LIMIT ${limit})
      SELECT page.id, page.project_id, page.number, page.title, page.description, page.archived_at, page.tier, page.total,
             p.key AS project_key,
             CASE WHEN page.tier = 3 THEN (
               SELECT c.body FROM comments c
                WHERE c.project_id = page.project_id AND c.task_id = page.id AND ${COMMENT_DOC} @@ qs.some
                ORDER BY c.created_at, c.id LIMIT 1) END AS comment
        FROM page JOIN projects p ON p.id = page.project_id CROSS JOIN qs
       ORDER BY page.tier, page.rank DESC, page.updated_at DESC, page.id`);
    const words = snippetWords(q);
    return {
      hits: rows.map((r) => {
        const where = WHERE[r.tier];
        const text = where === 'description' ? r.description : where === 'comment' ? (r.comment ?? '') : r.title;
        return {
          task: { id: r.id, key: taskKey(r.project_key, r.number), title: r.title, projectId: r.project_id, archived: r.archived_at !== null },
          where,
          snippet: snippetOf(text, words),
        };
      }),
      total: rows[0]?.total ?? 0,
    };
  }
}
