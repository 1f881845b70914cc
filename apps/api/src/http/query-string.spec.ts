import { cleanParams, parseQueryString, readInstant } from './query-string';

describe('parseQueryString', () => {
  it('strips NUL and keeps the rest as Node reads it', () => {
    expect({ ...parseQueryString('q=%00a%00b&x=1&x=2&k%00ey=v&bad=%zz&plus=a+b') }).toEqual({ q: 'ab', x: ['1', '2'], key: 'v', bad: '%zz', plus: 'a b' });
  });
});

describe('cleanParams', () => {
  it('strips NUL from every string parameter', () => {
    const params = { email: 'a\u0000b@example.com', id: 'x' };
    cleanParams(params);
    expect(params).toEqual({ email: 'ab@example.com', id: 'x' });
  });
});

describe('readInstant', () => {
  it.each([
    ['2026-01-31T12:00:00Z', '2026-01-31T12:00:00.000000Z'],
    ['2026-01-31T12:00:00.123456Z', '2026-01-31T12:00:00.123456Z'],
    ['2026-01-31T12:00:00.5Z', '2026-01-31T12:00:00.500000Z'],
    ['2026-01-01T00:30:00+01:00', '2025-12-31T23:30:00.000000Z'],
    ['2026-01-01T00:30:00-0130', '2026-01-01T02:00:00.000000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000000Z'],
    ['0099-06-01T00:00:00Z', '0099-06-01T00:00:00.000000Z'],
    ['2026-01-01T00:00:00+15:59', '2025-12-31T08:01:00.000000Z'],
  ])('reads %p as %p', (text, utc) => {
    expect(readInstant(text)).toBe(utc);
  });

  it.each([
    ['2026-02-30T00:00:00Z'],
    ['2025-02-29T00:00:00Z'],
    ['2026-13-01T00:00:00Z'],
    ['2026-00-10T00:00:00Z'],
    ['2026-01-00T00:00:00Z'],
    ['2026-01-01T24:00:00Z'],
    ['2026-01-01T23:60:00Z'],
    ['2026-01-01T23:59:60Z'],
    ['0000-01-01T00:00:00Z'],
    ['0001-01-01T00:00:00+01:00'],
    ['9999-12-31T23:59:59-01:00'],
    ['2026-01-01T00:00:00+20:00'],
    ['2026-01-01T00:00:00+01:60'],
    ['2026-01-01T00:00:00.1234567Z'],
    ['2026-01-01'],
    ['2026-01-01T00:00:00\u0000Z'],
    [42],
  ])('refuses %p', (text) => {
    expect(readInstant(text)).toBeNull();
  });
});
