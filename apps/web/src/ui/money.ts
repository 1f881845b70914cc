// Costs arrive in micros: millionths of whatever currency the team uses. The service converts
// nothing and names no currency, so the page shows a bare number, never a symbol.

export const MICROS_PER_UNIT = 1_000_000;

const COST = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 4 });
const COUNT = new Intl.NumberFormat();

/** A cost in micros as currency units with 2 to 4 decimals (0.0125, 3.50). */
export function formatCost(micros: number): string {
  return COST.format(micros / MICROS_PER_UNIT);
}

/** A token count with the reader's grouping (12,400). */
export function formatCount(n: number): string {
  return COUNT.format(n);
}

/** Currency units typed by a person as micros; null when it is not a number at all. */
export function unitsToMicros(units: string): number | null {
  const n = Number(units.trim());
  return units.trim() === '' || !Number.isFinite(n) ? null : Math.round(n * MICROS_PER_UNIT);
}

/** Micros as the plain number a person would type in a field (no grouping, up to 6 decimals). */
export function microsToUnits(micros: number): string {
  return String(micros / MICROS_PER_UNIT);
}
