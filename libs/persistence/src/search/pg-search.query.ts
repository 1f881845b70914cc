import { Injectable } from '@nestjs/common';
import { taskKey } from '@board/tasks';
import { Database } from '../database';
import { joinSql, raw, sql } from '../sql';
import { snippetOf, snippetWords } from './snippet';
import { SearchQuery, SearchResult, SearchWhere } from './search.query';

/** The order the answer ranks where a hit matched. */
const WHERE: readonly SearchWhere[] = ['key', 'title', 'description', 'comment'];

/** At most this many words of a query are matched (the rest are dropped): every word is one more index lookup. */
export const SEARCH_WORDS_MAX = 16;

/** A task key as a whole query (`WEB-12`, any case): the project key's rule, a dash, a number. */
const TASK_KEY = /^([A-Za-z][A-Za-z0-9]{1,9})-(\d{1,9})$/;

/**
 * A lexeme as one quoted tsquery term: inside quotes only the quote and the backslash are special,
 * so any text (operators, colons, parentheses) stays a word and never becomes query syntax.
 */
export const tsTerm = (lexeme: string): string => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

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
 * word, the comments' index the tasks whose words are spread over their comments. Two statements
 * whatever the number of projects or hits: the words, then the page of hits with the total.
 */
@Injectable()
export class PgSearchQuery extends SearchQuery {
  constructor(private readonly db: Database) {
    super();
  }

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
    // The words as PostgreSQL's parser reads them from the query, folded like the documents.
    const lexemes = await this.db.query<{ lexeme: string }>(
      sql`SELECT lexeme FROM unnest(to_tsvector('simple'::regconfig, f_unaccent(${q}::text))) LIMIT ${SEARCH_WORDS_MAX}`,
    );
    // Sent as values, not built in the statement: the planner then sees each term and picks the
    // index from its statistics (a term computed inside the statement is opaque to it).
    const terms = lexemes.map((r) => tsTerm(r.lexeme));
    if (terms.length === 0 && !key) return { hits: [], total: 0 };
    const joined = (suffix: string, operator: string) => (terms.length ? terms.map((t) => t + suffix).join(operator) : null);
    const every = joined(':*', ' & ');
    const some = joined(':*', ' | ');
    // The planner's guess for a prefix term is coarse (a few per cent of the documents), which at
    // this size makes reading every document look cheaper than the index; the contract says never
    // a scan of every task, so this transaction's plan takes the indexes. Parallel workers cost
    // more to start than the few index pages they would share (measured: 10–30 ms of a 50 ms
    // budget). Both settings end with the transaction (SET LOCAL).
    const rows = await this.db.transaction(async () => {
      await this.db.exec(sql`SELECT set_config('enable_seqscan', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)`);
      return this.db.query<HitRow>(sql`
      WITH keyed AS (
        SELECT t.id AS task_id
          FROM projects p JOIN tasks t ON t.project_id = p.id AND t.number = ${key ? Number(key[2]) : null}::int
         WHERE p.id = ANY(${ids}::uuid[]) AND p.key = ${key ? key[1].toUpperCase() : null}::text AND t.deleted_at IS NULL),
      by_task AS (
        SELECT s.task_id FROM task_search s WHERE s.project_id = ANY(${ids}::uuid[]) AND s.doc @@ ${every}::tsquery),
      -- Words spread over the task and its comments: per word, the tasks with a comment holding
      -- it (the comments' index, once per word); a task with any such comment is kept when each
      -- word is in its document or in that set.
      word AS (SELECT w.term, w.i FROM unnest(${terms.map((t) => t + ':*')}::tsquery[]) WITH ORDINALITY w(term, i)),
      -- One branch per word, each with its term as a value the planner sees (so the index is used).
      commented AS MATERIALIZED (
        ${joinSql(
          terms.map(
            (term, i) => sql`SELECT DISTINCT ${i + 1}::bigint AS i, c.project_id, c.task_id FROM comments c
               WHERE c.project_id = ANY(${ids}::uuid[]) AND ${COMMENT_DOC} @@ ${term + ':*'}::tsquery`,
          ),
          ' UNION ALL ',
        )}),
      by_comments AS (
        SELECT s.task_id
          FROM (SELECT DISTINCT project_id, task_id FROM commented) ct
          JOIN task_search s ON s.project_id = ct.project_id AND s.task_id = ct.task_id
         WHERE NOT EXISTS (
           SELECT 1 FROM word w
            WHERE NOT (s.doc @@ w.term OR (w.i, s.task_id) IN (SELECT i, task_id FROM commented)))),
      found AS (SELECT task_id FROM keyed UNION SELECT task_id FROM by_task UNION SELECT task_id FROM by_comments),
      ranked AS (
        SELECT t.id, t.project_id, t.number, t.title, t.description, t.archived_at, t.updated_at,
               CASE WHEN t.id IN (SELECT task_id FROM keyed) THEN 0
                    WHEN s.doc @@ ${joined(':*A', ' | ')}::tsquery THEN 1
                    WHEN s.doc @@ ${joined(':*B', ' | ')}::tsquery THEN 2
                    ELSE 3 END AS tier,
               coalesce(ts_rank(s.doc, ${some}::tsquery), 0) AS rank
          FROM found f
          -- One lookup by id per found task (OFFSET 0 keeps it a lookup): the planner's guess of
          -- how many are found is coarse, and a wrong guess would read every task of the projects.
          CROSS JOIN LATERAL (
            SELECT t.id, t.project_id, t.number, t.title, t.description, t.archived_at, t.updated_at FROM tasks t
             WHERE t.id = f.task_id AND t.project_id = ANY(${ids}::uuid[]) AND t.deleted_at IS NULL OFFSET 0) t
          CROSS JOIN LATERAL (SELECT s.doc FROM task_search s WHERE s.task_id = t.id AND s.project_id = t.project_id OFFSET 0) s),
      page AS (
        SELECT r.*, count(*) OVER ()::int AS total FROM ranked r
         ORDER BY r.tier, r.rank DESC, r.updated_at DESC, r.id
         LIMIT ${limit})
      SELECT page.id, page.project_id, page.number, page.title, page.description, page.archived_at, page.tier, page.total,
             p.key AS project_key,
             CASE WHEN page.tier = 3 THEN (
               SELECT c.body FROM comments c
                WHERE c.project_id = page.project_id AND c.task_id = page.id AND ${COMMENT_DOC} @@ ${some}::tsquery
                ORDER BY c.created_at, c.id LIMIT 1) END AS comment
        FROM page JOIN projects p ON p.id = page.project_id
       ORDER BY page.tier, page.rank DESC, page.updated_at DESC, page.id`);
    });
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
