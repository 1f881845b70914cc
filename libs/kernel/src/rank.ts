/**
 * Base-62 fractional indexes: strings that sort byte by byte (digits, then A-Z, then a-z), so
 * SQL compares them with COLLATE "C" and code with plain `<`. A key is an integer part whose
 * head letter encodes its length (a..z positive, A..Z negative) followed by a fraction without
 * trailing zeros, so appending stays short (logarithmic) and there is always room between two
 * keys: repeated inserts at one spot make keys longer, never equal.
 */
export const RANK_DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ZERO = RANK_DIGITS[0];
const SMALLEST_INTEGER = 'A' + ZERO.repeat(26);

const digitOf = (c: string): number => RANK_DIGITS.indexOf(c);

function midpoint(a: string, b: string | null): string {
  if (b !== null) {
    let n = 0;
    while ((a[n] ?? ZERO) === b[n]) n++;
    if (n > 0) return b.slice(0, n) + midpoint(a.slice(n), b.slice(n));
  }
  const digitA = a ? digitOf(a[0]) : 0;
  const digitB = b !== null ? digitOf(b[0]) : RANK_DIGITS.length;
  if (digitB - digitA > 1) return RANK_DIGITS[Math.round(0.5 * (digitA + digitB))];
  if (b !== null && b.length > 1) return b.slice(0, 1);
  return RANK_DIGITS[digitA] + midpoint(a.slice(1), null);
}

function integerLength(head: string): number {
  if (head >= 'a' && head <= 'z') return head.charCodeAt(0) - 97 + 2;
  if (head >= 'A' && head <= 'Z') return 90 - head.charCodeAt(0) + 2;
  throw new Error(`invalid rank head: ${head}`);
}

function integerPart(key: string): string {
  const len = integerLength(key[0]);
  if (len > key.length) throw new Error(`invalid rank: ${key}`);
  return key.slice(0, len);
}

export function isValidRank(key: unknown): key is string {
  if (typeof key !== 'string' || key.length === 0 || key === SMALLEST_INTEGER) return false;
  if ([...key].some((c) => digitOf(c) < 0)) return false;
  try {
    const int = integerPart(key);
    return !key.slice(int.length).endsWith(ZERO);
  } catch {
    return false;
  }
}

function step(x: string, up: boolean): string | null {
  const [head, ...digits] = x.split('');
  let carry = true;
  for (let i = digits.length - 1; carry && i >= 0; i--) {
    const d = digitOf(digits[i]) + (up ? 1 : -1);
    if (d === RANK_DIGITS.length) digits[i] = ZERO;
    else if (d === -1) digits[i] = RANK_DIGITS[RANK_DIGITS.length - 1];
    else {
      digits[i] = RANK_DIGITS[d];
      carry = false;
    }
  }
  if (!carry) return head + digits.join('');
  if (up) {
    if (head === 'Z') return 'a' + ZERO;
    if (head === 'z') return null;
    const h = String.fromCharCode(head.charCodeAt(0) + 1);
    if (h > 'a') digits.push(ZERO);
    else digits.pop();
    return h + digits.join('');
  }
  if (head === 'a') return 'Z' + RANK_DIGITS[RANK_DIGITS.length - 1];
  if (head === 'A') return null;
  const h = String.fromCharCode(head.charCodeAt(0) - 1);
  if (h < 'Z') digits.push(RANK_DIGITS[RANK_DIGITS.length - 1]);
  else digits.pop();
  return h + digits.join('');
}

/** A key strictly between `a` and `b`; null means the open end. */
export function rankBetween(a: string | null, b: string | null): string {
  if (a !== null && !isValidRank(a)) throw new Error(`invalid rank: ${a}`);
  if (b !== null && !isValidRank(b)) throw new Error(`invalid rank: ${b}`);
  if (a !== null && b !== null && a >= b) throw new Error(`rank ${a} is not before ${b}`);
  if (a === null) {
    if (b === null) return 'a' + ZERO;
    const ib = integerPart(b);
    const fb = b.slice(ib.length);
    if (ib === SMALLEST_INTEGER) return ib + midpoint('', fb);
    if (ib < b) return ib;
    const lower = step(ib, false);
    if (lower === null) throw new Error('rank space exhausted');
    return lower;
  }
  const ia = integerPart(a);
  const fa = a.slice(ia.length);
  if (b === null) {
    const higher = step(ia, true);
    return higher === null ? ia + midpoint(fa, null) : higher;
  }
  const ib = integerPart(b);
  if (ia === ib) return ia + midpoint(fa, b.slice(ib.length));
  const higher = step(ia, true);
  if (higher === null) throw new Error('rank space exhausted');
  return higher < b ? higher : ia + midpoint(fa, null);
}

/**
 * `n` keys strictly between `lo` and `hi` (null: the open end), each the place the next write at
 * that spot would take after the one before: `near: 'low'` goes down towards `lo` (what repeated
 * places straight after `lo` take), `near: 'high'` up towards `hi` (straight before `hi`, or
 * appends when `hi` is null). The first is `rankBetween(lo, hi)`. Writers that meet at one spot
 * offer these, so the one that comes second takes the next key instead of reading again.
 */
export function rankOffers(lo: string | null, hi: string | null, n: number, near: 'low' | 'high'): string[] {
  const keys: string[] = [];
  let low = lo;
  let high = hi;
  for (let i = 0; i < n; i++) {
    const key = rankBetween(low, high);
    keys.push(key);
    if (near === 'low') high = key;
    else low = key;
  }
  return keys;
}

/** `n` ascending keys after `a` (for seeding several rows at once). */
export function ranksAfter(a: string | null, n: number): string[] {
  return rankOffers(a, null, n, 'high');
}

/** `n` descending keys before `b` (the first is the nearest): candidates for a place at the top. */
export function ranksBefore(b: string | null, n: number): string[] {
  return rankOffers(null, b, n, 'low');
}
