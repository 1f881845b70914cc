import { fail, InTurn, inTurn, readInTurn } from '@board/kernel';

export const CARD_PLACES = ['headerL', 'headerR', 'title', 'footer', 'off'] as const;
export const CARD_MODES = ['colour', 'fixed', 'text', 'avatar'] as const;
export type CardRow = { place: string; mode: string };
export type CardRows = Record<string, CardRow>;

/** Rows without words (a colour, an avatar) come first in a shared place. */
const WORDLESS = new Set(['colour', 'avatar']);

/**
 * A `rows` patch as its request DTO read it: each key (`_title`, or a property id in lower case)
 * with its row, in the order sent. Which keys are properties of the project is stored state, and
 * the contract checks each entry's key before its place and mode, entry by entry, so a row's own
 * refusal waits its turn (`checkCardRows`).
 */
export type CardRowsAsked = ReadonlyArray<{ key: string; row: InTurn<CardRow> }>;

/** A `rows` patch: an object of rows by key (anything else is refused). */
export function readCardRowsAsked(raw: unknown): CardRowsAsked {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) fail('card_view.rows_invalid');
  return Object.entries(raw as Record<string, unknown>).map(([rawKey, value]) => ({
    key: rawKey === '_title' ? rawKey : rawKey.toLowerCase(),
    row: readInTurn(() => readCardRow(value)),
  }));
}

/** One row: `{ place, mode }`, each one of its words. */
export function readCardRow(value: unknown): CardRow {
  const row = value as Record<string, unknown> | null;
  if (!row || typeof row !== 'object') fail('card.place_invalid');
  if (!(CARD_PLACES as readonly unknown[]).includes(row.place)) fail('card.place_invalid');
  if (!(CARD_MODES as readonly unknown[]).includes(row.mode)) fail('card.mode_invalid');
  return { place: row.place as string, mode: row.mode as string };
}

/** The rows of a patch whose keys are `_title` or properties of the project (`propertyIds`). */
export function checkCardRows(asked: CardRowsAsked, propertyIds: ReadonlySet<string>): CardRows {
  const rows: CardRows = {};
  for (const { key, row } of asked) {
    if (key !== '_title' && !propertyIds.has(key)) fail('card.key_invalid');
    rows[key] = inTurn(row);
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
