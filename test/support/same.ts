/**
 * `expect(actual).toEqual(expected)` for hot loops: a property-based spec asserts thousands of
 * times, and each `expect()` builds an assertion error (its stack) and every matcher anew, which
 * cost the unit specs seconds. Plain data is compared here first; only when it differs (or is not
 * plain: class instances, dates, maps) does `toEqual` judge it and write its message.
 */
export function expectSame(actual: unknown, expected: unknown): void {
  if (!plainEqual(actual, expected)) expect(actual).toEqual(expected);
}

/** True only where `toEqual` is sure to agree: the same primitive, or arrays and plain objects equal all the way down. */
function plainEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!plainEqual(a[i], b[i])) return false;
    return true;
  }
  if (!isPlain(a) || !isPlain(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  // toEqual ignores keys whose value is undefined.
  const keys = Object.keys(x).filter((k) => x[k] !== undefined);
  if (keys.length !== Object.keys(y).filter((k) => y[k] !== undefined).length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(y, k) && plainEqual(x[k], y[k]));
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && Object.getOwnPropertySymbols(value).length === 0;
}
