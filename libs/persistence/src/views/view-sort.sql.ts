import { SortSpec } from '@board/filters';
import { PropertyDef } from '@board/properties';
import { raw, Sql, sql } from '../sql';

const RANK = raw(`t.position COLLATE "C", t.id`);

/**
 * The ORDER BY of a view read over tasks `t`: the chosen column with empties last in either
 * direction, then the shared rank. Every property id goes in as a bind parameter.
 */
export function orderBySql(sort: SortSpec | null, properties: readonly PropertyDef[]): Sql {
  if (!sort) return RANK;
  const expr = sortExpression(sort.columnId, properties);
  if (!expr) return RANK;
  return sql`${expr} ${raw(sort.direction === 'desc' ? 'DESC' : 'ASC')} NULLS LAST, ${RANK}`;
}

/**
 * Text sorts by `lower(x COLLATE "C")`: ASCII letters lowered, code-point order. Under "C",
 * lower() leaves every other character as it is whatever the database's own ctype, so the order
 * is the same on every deployment (and the page's twin, libs/views view-order.ts, can match it).
 */
function sortExpression(columnId: string, properties: readonly PropertyDef[]): Sql | null {
  switch (columnId) {
    case '_key':
      return raw('t.number');
    case '_title':
      return raw('lower(t.title COLLATE "C")');
    case '_checklist':
      return raw(`(SELECT CASE WHEN count(*) = 0 THEN NULL ELSE (count(*) FILTER (WHERE c.done))::float8 / count(*) END
                 FROM checklist_items c WHERE c.project_id = t.project_id AND c.task_id = t.id)`);
    case '_comments':
      return raw('(SELECT count(*) FROM comments c WHERE c.project_id = t.project_id AND c.task_id = t.id)');
    case '_created':
      return raw('t.created_at');
    case '_updated':
      return raw('t.updated_at');
  }
  const property = properties.find((p) => p.id === columnId);
  if (!property) return null;
  const id = property.id;
  const value = sql`(t."values" -> ${id}::text)`;
  const text = sql`(t."values" ->> ${id}::text)`;
  switch (property.type) {
    case 'select':
    case 'iteration':
      return sql`(SELECT o.position FROM options o WHERE o.project_id = t.project_id AND o.id::text = ${text}) COLLATE "C"`;
    case 'multi_select':
      return sql`(SELECT min(o.position COLLATE "C") FROM options o
                WHERE o.project_id = t.project_id AND jsonb_typeof(${value}) = 'array'
                  AND o.id::text IN (SELECT jsonb_array_elements_text(CASE WHEN jsonb_typeof(${value}) = 'array' THEN ${value} ELSE '[]'::jsonb END)))`;
    case 'person':
      return sql`(SELECT lower(u.name COLLATE "C") FROM users u WHERE u.id::text = ${text})`;
    case 'number':
      return sql`CASE WHEN jsonb_typeof(${value}) = 'number' THEN ${text}::float8 END`;
    case 'checkbox':
      return sql`CASE WHEN ${text} = 'true' THEN 1 ELSE 0 END`;
    case 'link':
      return sql`CASE WHEN jsonb_typeof(${value}) = 'array' THEN lower((${value} ->> 0) COLLATE "C") END`;
    case 'date':
      return sql`${text} COLLATE "C"`;
    default:
      return sql`NULLIF(lower(${text} COLLATE "C"), '')`;
  }
}
