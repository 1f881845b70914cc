import { cleanFilters, cleanSort, Filters, SortSpec } from '@board/filters';
import { PropertyDef } from '@board/properties';
import { CardRows, orderCardRows, ViewRecord } from '@board/views';

export interface ViewAnswer {
  id: string;
  name: string;
  kind: string;
  groupById: string | null;
  position: string;
  isDefault: boolean;
  filters: Filters;
  lens: Filters;
  sort: SortSpec | null;
  lensSort: SortSpec | null;
  /** The view's card view (the project's rows with the view's own over them), or null while it follows the project's. */
  cardView: { rows: CardRows } | null;
}

/**
 * A view as the reader sees it: rules and orders cleaned on every read (gone properties and
 * options thrown away), and the reader's own lens; an agent always reads none.
 */
export function presentView(
  v: ViewRecord,
  properties: readonly PropertyDef[],
  readerKind: 'human' | 'agent',
  projectRows: CardRows = {},
): ViewAnswer {
  const human = readerKind === 'human';
  const order = properties.map((p) => p.id);
  return {
    id: v.id,
    name: v.name,
    kind: v.kind,
    groupById: v.groupById && properties.some((p) => p.id === v.groupById) ? v.groupById : null,
    position: v.position,
    isDefault: v.isDefault,
    filters: cleanFilters(v.filters ?? { rules: [] }, { properties }),
    lens: human ? cleanFilters({ rules: v.lensRules ?? [] }, { properties }) : { rules: [] },
    sort: cleanSort(v.sort, properties),
    lensSort: human ? cleanSort(v.lensSort, properties) : null,
    // A view keeps only the rows it changed, so a property added later still shows on its cards.
    cardView: v.cardView ? { rows: orderCardRows({ ...projectRows, ...(v.cardView.rows ?? {}) }, order) } : null,
  };
}
