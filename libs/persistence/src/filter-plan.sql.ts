import type { RulePlan } from '@board/filters';
import { fromParams, raw, Sql } from './sql';

/** The four empties: a missing key (SQL NULL), JSON null, "" and []. Never NULL itself. */
const emptySql = (x: string): string => `COALESCE(${x} IN ('null'::jsonb, '""'::jsonb, '[]'::jsonb), TRUE)`;

/**
 * The strings a value holds, as rows of `s(v)`: a string is a list of one; a list holds its string
 * members; anything else holds none.
 */
const stringsSql = (x: string): string =>
  `SELECT s.v #>> '{}' AS v FROM jsonb_array_elements(CASE jsonb_typeof(${x}) WHEN 'array' THEN ${x} ` +
  `WHEN 'string' THEN jsonb_build_array(${x}) ELSE '[]'::jsonb END) AS s(v) WHERE jsonb_typeof(s.v) = 'string'`;

function ruleSql(plan: RulePlan, param: (value: unknown) => string): string {
  // The property id is bound on first use only: a rule that comes out constant (`__me__` with no
  // reader) must not leave an unused parameter behind, which PostgreSQL refuses.
  let bound: string | undefined;
  const value = (): string => (bound ??= `(t."values" -> ${param(plan.propertyId)}::text)`);
  switch (plan.kind) {
    case 'empty':
      return plan.negate ? `NOT ${emptySql(value())}` : emptySql(value());
    case 'set': {
      const parts: string[] = [];
      if (plan.none) parts.push(emptySql(value()));
      // `?|` matches a string scalar equal to one of the ids, or a list holding one as a string member.
      if (plan.ids.length > 0) {
        parts.push(`COALESCE(jsonb_typeof(${value()}) IN ('string', 'array') AND ${value()} ?| ${param(plan.ids)}::text[], FALSE)`);
      }
      const hit = parts.length > 0 ? `(${parts.join(' OR ')})` : 'FALSE';
      return plan.negate ? `NOT ${hit}` : hit;
    }
    case 'checkbox': {
      const checked = `COALESCE(${value()} = 'true'::jsonb, FALSE)`;
      const parts: string[] = [];
      if (plan.checked) parts.push(checked);
      if (plan.unchecked) parts.push(`NOT ${checked}`);
      if (plan.none) parts.push(emptySql(value()));
      return parts.length > 0 ? `(${parts.join(' OR ')})` : 'FALSE';
    }
    case 'contains': {
      // COLLATE "C" folds ASCII letters only, whatever the database's locale: the twin of foldCase().
      const hit = `EXISTS (SELECT 1 FROM (${stringsSql(value())}) AS h WHERE strpos(lower(h.v COLLATE "C"), ${param(plan.needle)}::text) > 0)`;
      return plan.negate ? `NOT ${hit}` : hit;
    }
    case 'number': {
      const cmp = plan.op === 'eq' ? '=' : plan.op === 'gt' ? '>' : '<';
      // CASE, not AND: the cast must never see a non-number.
      return `(CASE WHEN jsonb_typeof(${value()}) = 'number' THEN (${value()})::float8 ${cmp} ${param(plan.number)}::float8 ELSE FALSE END)`;
    }
    case 'date': {
      const cmp = plan.op === 'on' ? '=' : plan.op === 'before' ? '<' : '>';
      const day = `((${value()}) #>> '{}')`;
      return (
        `(CASE WHEN jsonb_typeof(${value()}) = 'string' AND ${day} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' ` +
        `THEN ${day} COLLATE "C" ${cmp} ${param(plan.day)}::text ELSE FALSE END)`
      );
    }
  }
}

/**
 * Compiles a filter plan (libs/filters `planFilters`: the rules cleaned, the sentinels resolved for
 * one reader) into a PostgreSQL boolean expression over a row alias `t` whose column `t."values"`
 * is the task's jsonb values map. The domain says what a rule asks; only this file knows the column
 * and the SQL. Every value, property ids included, travels as a bind parameter. Answers exactly what
 * evaluate() answers, row by row (test/integration/filters-sql.test.ts); TRUE when no rule is left.
 * The expression is never NULL.
 */
export function filterPlanSql(plans: readonly RulePlan[]): Sql {
  if (plans.length === 0) return raw('TRUE');
  return fromParams((param) => plans.map((plan) => `(${ruleSql(plan, param)})`).join(' AND '));
}
