// The page's small pure helpers (apps/web/src/ui), run under Node: the page has no test runner of its own.
import { formatCost, microsToUnits, unitsToMicros } from '../../apps/web/src/ui/money';
import { safeHref } from '../../apps/web/src/ui/href';

// Node's Intl follows the machine's locale; the figures below are read with the en-US one.
const en = new Intl.NumberFormat().resolvedOptions().locale.startsWith('en');

describe('costs in micros', () => {
  (en ? it : it.skip)('show 2 to 4 decimals and no currency symbol', () => {
    expect(formatCost(0)).toBe('0.00');
    expect(formatCost(125_000)).toBe('0.125');
    expect(formatCost(2_500)).toBe('0.0025');
    expect(formatCost(1)).toBe('0.00');
    expect(formatCost(1_502_500)).toBe('1.5025');
    expect(formatCost(2_500_000)).toBe('2.50');
    expect(formatCost(1_234_567_890)).toBe('1,234.5679');
  });

  it('convert typed units to micros and back (1 unit = 1,000,000)', () => {
    expect(unitsToMicros('2.5')).toBe(2_500_000);
    expect(unitsToMicros(' 0.000001 ')).toBe(1);
    expect(unitsToMicros('0.1')).toBe(100_000); // rounded: 0.1 * 1e6 is not exact in floating point
    expect(unitsToMicros('0')).toBe(0);
    expect(unitsToMicros('')).toBeNull();
    expect(unitsToMicros('abc')).toBeNull();
    expect(microsToUnits(2_500_000)).toBe('2.5');
    expect(microsToUnits(1)).toBe('0.000001');
  });
});

describe('safeHref', () => {
  it('keeps http and https addresses and refuses every other scheme', () => {
    expect(safeHref('https://git.example.com/pr/1')).toBe('https://git.example.com/pr/1');
    expect(safeHref('http://preview.example.com')).toBe('http://preview.example.com/');
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', ' javascript:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:x', 'file:///etc/passwd', '//evil.example', 'not a url', '']) {
      expect([bad, safeHref(bad)]).toEqual([bad, null]);
    }
  });
});
