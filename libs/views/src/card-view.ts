import { fail } from '@board/kernel';

export const CARD_PLACES = ['headerL', 'headerR', 'title', 'footer', 'off'] as const;
export const CARD_MODES = ['colour', 'fixed', 'text', 'avatar'] as const;
export type CardRow = { place: string; mode: string };
export type CardRows = Record<string, CardRow>;

/** Rows without words (a colour, an avatar) come first in a shared place. */
const WORDLESS = new Set(['colour', 'avatar']);

/** Reads a `rows` patch: keys are property ids of the project or `_title`, values `{ place, mode }`. */
export function readCardRows(raw: unknown, propertyIds: ReadonlySet<string>): CardRows {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) fail('card_view.rows_invalid');
  const rows: CardRows = {};
  for (const [rawKey, value] of Object.entries(raw as Record<string, unknown>)) {
    const key = rawKey === '_title' ? rawKey : rawKey.toLowerCase();
    if (key !== '_title' && !propertyIds.has(key)) fail('card.key_invalid');
    const row = value as Record<string, unknown> | null;
    if (!row || typeof row !== 'object') fail('card.place_invalid');
    if (!(CARD_PLACES as readonly unknown[]).includes(row.place)) fail('card.place_invalid');
    if (!(CARD_MODES as readonly unknown[]).includes(row.mode)) fail('card.mode_invalid');
    rows[key] = { place: row.place as string, mode: row.mode as string };
  }
  return rows;
}

/**
 * The rows in the order a card draws them: by place, and within a place the wordless rows
 * first, then the order of properties (the title before any property). Rows of properties that
 * are gone are left out.
 */
export function orderCardRows(rows: Readonly<CardRows> | null | undefined, propertyOrder: readonly string[]): CardRows {
  const rank = new Map(propertyOrder.map((id, i) => [id, i]));
  const entries = Object.entries(rows ?? {}).filter(([key]) => key === '_title' || rank.has(key));
  const placeOf = (row: CardRow) => {
    const i = (CARD_PLACES as readonly string[]).indexOf(row.place);
    return i < 0 ? CARD_PLACES.length : i;
  };
  entries.sort(([ka, a], [kb, b]) => {
    const byPlace = placeOf(a) - placeOf(b);
    if (byPlace !== 0) return byPlace;
    const byWords = Number(!WORDLESS.has(a.mode)) - Number(!WORDLESS.has(b.mode));
    if (byWords !== 0) return byWords;
    return (ka === '_title' ? -1 : (rank.get(ka) ?? -1)) - (kb === '_title' ? -1 : (rank.get(kb) ?? -1));
  });
  return Object.fromEntries(entries);
}
