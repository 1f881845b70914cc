import { DomainError } from './domain-error';
import { charLength, fieldLabel, readText, TextRule } from './text';

/** The DomainError `readText` throws, or a failure when it does not throw one. */
function refusal(value: unknown, field: string, rule?: TextRule): DomainError {
  try {
    readText(value, field, rule);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error(`readText(${JSON.stringify(value)}) did not throw`);
}

describe('fieldLabel', () => {
  it('capitalises the first letter of the body key', () => {
    expect(fieldLabel('title')).toBe('Title');
    expect(fieldLabel('doneWhen')).toBe('DoneWhen');
    expect(fieldLabel('')).toBe('');
  });
});

describe('charLength', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(charLength('abc')).toBe(3);
    expect(charLength('😀')).toBe(1);
    expect('😀'.length).toBe(2);
    expect(charLength('é😀x')).toBe(3);
    expect(charLength('')).toBe(0);
  });
});

describe('readText', () => {
  it('trims and answers the text', () => {
    expect(readText('  Fix the login  ', 'title')).toBe('Fix the login');
    expect(readText('\tline\n', 'title')).toBe('line');
  });

  it('keeps surrounding spaces with trim: false', () => {
    expect(readText('  secret  ', 'password', { trim: false })).toBe('  secret  ');
  });

  it('answers undefined for an optional field that was not sent', () => {
    expect(readText(undefined, 'title')).toBeUndefined();
    expect(readText(undefined, 'title', { max: 10 })).toBeUndefined();
  });

  it('refuses a missing required field with text.empty and the capitalised field', () => {
    const e = refusal(undefined, 'title', { required: true });
    expect(e.code).toBe('text.empty');
    expect(e.params).toEqual({ field: 'Title' });
  });

  it('refuses null with text.empty, required or not', () => {
    expect(refusal(null, 'title').code).toBe('text.empty');
    expect(refusal(null, 'title', { required: true }).params).toEqual({ field: 'Title' });
  });

  it('refuses a blank string with text.empty', () => {
    for (const blank of ['', '   ', '\n\t ']) {
      const e = refusal(blank, 'title');
      expect(e.code).toBe('text.empty');
      expect(e.params).toEqual({ field: 'Title' });
    }
  });

  it('allows empty text and null (as the empty string) with allowEmpty', () => {
    expect(readText('', 'description', { allowEmpty: true })).toBe('');
    expect(readText('   ', 'description', { allowEmpty: true })).toBe('');
    expect(readText(null, 'description', { allowEmpty: true })).toBe('');
    expect(readText(null, 'description', { allowEmpty: true, required: true })).toBe('');
  });

  it('refuses a non-string with text.not_text', () => {
    for (const value of [42, true, {}, ['a'], 0]) {
      const e = refusal(value, 'title');
      expect(e.code).toBe('text.not_text');
      expect(e.params).toEqual({ field: 'Title' });
    }
  });

  it('refuses text over max with text.too_long and the max', () => {
    const e = refusal('abcdef', 'name', { max: 5 });
    expect(e.code).toBe('text.too_long');
    expect(e.params).toEqual({ field: 'Name', max: 5 });
    expect(readText('abcde', 'name', { max: 5 })).toBe('abcde');
  });

  it('measures length after trimming, unless trim is false', () => {
    expect(readText('  abcde  ', 'name', { max: 5 })).toBe('abcde');
    expect(refusal('  abcde  ', 'name', { max: 5, trim: false }).code).toBe('text.too_long');
  });

  it('counts an emoji as one character: 400 emoji pass max 400, 401 do not', () => {
    const four100 = '😀'.repeat(400);
    expect(four100.length).toBe(800);
    expect(readText(four100, 'title', { max: 400 })).toBe(four100);
    const e = refusal('😀'.repeat(401), 'title', { max: 400 });
    expect(e.code).toBe('text.too_long');
    expect(e.params).toEqual({ field: 'Title', max: 400 });
  });
});

describe('wellFormed', () => {
  it('replaces lone surrogates and keeps pairs', () => {
    const { wellFormed } = jest.requireActual('./text') as typeof import('./text');
    expect(wellFormed('a\uD800b\uDC00c😀')).toBe('a\uFFFDb\uFFFDc😀');
    expect(() => encodeURIComponent(wellFormed('\uDBFF'))).not.toThrow();
  });
});

describe('pgSafeText', () => {
  it('removes NUL and makes lone surrogates U+FFFD, keeping pairs', () => {
    const { pgSafeText } = jest.requireActual('./text') as typeof import('./text');
    expect(pgSafeText('a\u0000b\uD800c😀')).toBe('ab\uFFFDc😀');
    expect(pgSafeText('plain')).toBe('plain');
  });
});
