import { keyCandidates, readProjectKey, readProjectName } from './project-key';
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

describe('keyCandidates', () => {
  it('starts with the initials of a several-word name', () => {
    expect(keyCandidates('Task Board')[0]).toBe('TB');
    expect(keyCandidates('the big launch plan')[0]).toBe('TBLP');
    expect(keyCandidates('Café Crème')[0]).toBe('CC');
  });

  it('starts with the first four letters of a one-word name, upper-cased', () => {
    expect(keyCandidates('website')[0]).toBe('WEBS');
    expect(keyCandidates('Éclair')[0]).toBe('ECLA');
    expect(keyCandidates('Ops')[0]).toBe('OPS');
  });

  it('follows the base with numbered variants', () => {
    expect(keyCandidates('Task Board').slice(0, 4)).toEqual(['TB', 'TB2', 'TB3', 'TB4']);
  });

  it.each([['2024'], ['123 456'], ['!!!'], ['—'], [''], ['日本語'], ['x'], ['1A'], ['3D Printer'], ['a b c d e f g h i j k l m']])(
    'gives valid keys for %j',
    (name) => {
      const candidates = keyCandidates(name);
      expect(candidates.length).toBeGreaterThan(100);
      expect(new Set(candidates).size).toBe(candidates.length);
      for (const key of candidates) {
        if (!KEY.test(key)) throw new Error(`${JSON.stringify(name)} gave invalid key ${key}`);
        expect(readProjectKey(key)).toBe(key);
      }
    },
  );

  it('falls back to PR for names without letters', () => {
    expect(keyCandidates('2024')[0]).toBe('PR');
    expect(keyCandidates('!!!')[0]).toBe('PR');
  });
});
