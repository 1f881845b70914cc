import { SortSpec } from '@board/filters';
import { PropertyDef } from '@board/properties';

/**
 * The ORDER BY of a view read over tasks `t`: the chosen column with empties last in either
 * direction, then the shared rank. Every property id goes in as a bind parameter.
 */
export function orderBySql(sort: SortSpec | null, properties: readonly PropertyDef[], param: (v: unknown) => string): string {
  const rank = `t.position COLLATE "C", t.id`;
  if (!sort) return rank;
  const expr = sortExpression(sort.columnId, properties, param);
  if (!expr) return rank;
  return `${expr} ${sort.direction === 'desc' ? 'DESC' : 'ASC'} NULLS LAST, ${rank}`;
}

function sortExpression(columnId: string, properties: readonly PropertyDef[], param: (v: unknown) => string): string | null {
  switch (columnId) {
    case '_key':
      return 't.number';
    case '_title':
      return 'lower(t.title) COLLATE "C"';
    case '_checklist':
      return `(SELECT CASE WHEN count(*) = 0 THEN NULL ELSE (count(*) FILTER (WHERE c.done))::float8 / count(*) END
                 FROM checklist_items c WHERE c.project_id = t.project_id AND c.task_id = t.id)`;
    case '_comments':
      return '(SELECT count(*) FROM comments c WHERE c.project_id = t.project_id AND c.task_id = t.id)';
    case '_created':
      return 't.created_at';
    case '_updated':
      return 't.updated_at';
  }
  const property = properties.find((p) => p.id === columnId);
  if (!property) return null;
  const id = param(property.id);
  const value = `(t."values" -> ${id})`;
  switch (property.type) {
    case 'select':
    case 'iteration':
      return `(SELECT o.position FROM options o WHERE o.project_id = t.project_id AND o.id::text = (t."values" ->> ${id})) COLLATE "C"`;
    case 'multi_select':
      return `(SELECT min(o.position COLLATE "C") FROM options o
                WHERE o.project_id = t.project_id AND jsonb_typeof(${value}) = 'array'
                  AND o.id::text IN (SELECT jsonb_array_elements_text(CASE WHEN jsonb_typeof(${value}) = 'array' THEN ${value} ELSE '[]'::jsonb END)))`;
    case 'person':
      return `(SELECT lower(u.name) FROM users u WHERE u.id::text = (t."values" ->> ${id})) COLLATE "C"`;
    case 'number':
      return `CASE WHEN jsonb_typeof(${value}) = 'number' THEN (t."values" ->> ${id})::float8 END`;
    case 'checkbox':
      return `CASE WHEN (t."values" ->> ${id}) = 'true' THEN 1 ELSE 0 END`;
    case 'link':
      return `CASE WHEN jsonb_typeof(${value}) = 'array' THEN lower(${value} ->> 0) END COLLATE "C"`;
    case 'date':
      return `(t."values" ->> ${id}) COLLATE "C"`;
    default:
      return `NULLIF(lower(t."values" ->> ${id}), '') COLLATE "C"`;
  }
}
