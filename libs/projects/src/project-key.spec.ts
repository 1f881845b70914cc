import { keyBases, readProjectKey, readProjectName, spareKey } from './project-key';
import { refusal } from '../../../test/support/refusal';

const KEY = /^[A-Z][A-Z0-9]{1,9}$/;

describe('readProjectKey', () => {
  it('upper-cases the key', () => {
    expect(readProjectKey('tb')).toBe('TB');
    expect(readProjectKey('Web2')).toBe('WEB2');
  });

  it('accepts 2 and 10 characters', () => {
    expect(readProjectKey('AB')).toBe('AB');
    expect(readProjectKey('A123456789')).toBe('A123456789');
  });

  it.each([
    ['one character', 'A'],
    ['eleven characters', 'AB12345678X'],
    ['a leading digit', '1AB'],
    ['a dash', 'A-B'],
    ['a space inside', 'A B'],
    ['an accented letter', 'ÉCO'],
    ['the empty string', ''],
    ['a number', 12],
    ['null', null],
    ['undefined', undefined],
    ['an array', ['AB']],
  ])('refuses %s with project.key_invalid', (_label, value) => {
    const e = refusal(() => readProjectKey(value));
    expect(e.code).toBe('project.key_invalid');
    expect(e.params).toEqual({});
  });
});

describe('readProjectName', () => {
  it('is 1 to 80 characters, trimmed', () => {
    expect(readProjectName('  Task Board ', true)).toBe('Task Board');
    expect(readProjectName(undefined, false)).toBeUndefined();
    expect(readProjectName('x'.repeat(80), true)).toBe('x'.repeat(80));
    const long = refusal(() => readProjectName('x'.repeat(81), true));
    expect(long.code).toBe('text.too_long');
    expect(long.params).toEqual({ field: 'Name', max: 80 });
    expect(refusal(() => readProjectName('  ', true)).code).toBe('text.empty');
  });
});

describe('keyBases', () => {
  it('starts with the initials of a several-word name', () => {
    expect(keyBases('Task Board')[0]).toBe('TB');
    expect(keyBases('the big launch plan')[0]).toBe('TBLP');
    expect(keyBases('Café Crème')[0]).toBe('CC');
  });

  it('starts with the first four letters of a one-word name, upper-cased', () => {
    expect(keyBases('website')[0]).toBe('WEBS');
    expect(keyBases('Éclair')[0]).toBe('ECLA');
    expect(keyBases('Ops')[0]).toBe('OPS');
  });

  it('offers the first two letters next, which leave room for eight digits', () => {
    expect(keyBases('the big launch plan')).toEqual(['TBLP', 'TB']);
    expect(keyBases('a b c d e f g h i j k l m')).toEqual(['ABCDEF', 'AB']);
    expect(keyBases('Task Board')).toEqual(['TB']);
  });

  it.each([['2024'], ['123 456'], ['!!!'], ['—'], [''], ['日本語'], ['x'], ['1A'], ['3D Printer'], ['a b c d e f g h i j k l m']])(
    'gives bases that are valid keys, bare and with the longest number that fits, for %j',
    (name) => {
      for (const base of keyBases(name)) {
        for (const key of [base, `${base}2`, `${base}${'9'.repeat(10 - base.length)}`]) {
          if (!KEY.test(key)) throw new Error(`${JSON.stringify(name)} gave invalid key ${key}`);
          expect(readProjectKey(key)).toBe(key);
        }
      }
    },
  );

  it('falls back to PR for names without letters', () => {
    expect(keyBases('2024')[0]).toBe('PR');
    expect(keyBases('!!!')[0]).toBe('PR');
  });
});

describe('spareKey', () => {
  it('is ten letters or digits that start with a letter', () => {
    let seed = 7;
    const randomBelow = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    for (let i = 0; i < 200; i++) {
      const key = spareKey(randomBelow);
      expect(key).toMatch(KEY);
      expect(key).toHaveLength(10);
    }
    expect(spareKey(() => 0)).toBe('AAAAAAAAAA');
  });
});
