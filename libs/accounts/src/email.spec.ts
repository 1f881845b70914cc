import { DomainError } from '@board/kernel';
import { EMAIL_MAX, looksLikeEmail, normalizeEmail, readEmail, signInEmail } from './email';

function refusal(value: unknown): DomainError {
  try {
    readEmail(value);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error(`readEmail(${JSON.stringify(value)}) did not throw`);
}

describe('readEmail', () => {
  it('trims and lower-cases an address', () => {
    expect(readEmail('  Ada.Lovelace@Example.COM ')).toBe('ada.lovelace@example.com');
    expect(readEmail('a+tag@sub.example.org')).toBe('a+tag@sub.example.org');
  });

  it.each([
    ['no at sign', 'ada.example.com'],
    ['no dot after the at', 'ada@example'],
    ['nothing before the at', '@example.com'],
    ['a space inside', 'ada lovelace@example.com'],
    ['two at signs', 'ada@@example.com'],
    ['nothing after the last dot', 'ada@example.'],
    ['a trailing dot after the domain', 'alice@example.test.'],
    ['a zero-width space', 'alice\u200b@example.test'],
    ['a zero-width joiner', 'ali\u200dce@example.test'],
    ['a zero-width non-joiner in the domain', 'alice@exa\u200cmple.test'],
    ['a byte-order mark inside', 'ali\ufeffce@example.test'],
    ['a soft hyphen', 'al\u00adice@example.test'],
    ['a right-to-left mark', 'alice\u200f@example.test'],
    ['a control character', 'alice\u0007@example.test'],
    ['a NUL', 'alice\u0000@example.test'],
    ['a tab inside', 'alice\t@example.test'],
    ['a no-break space inside', 'alice\u00a0x@example.test'],
    ['an ideographic space inside', 'alice\u3000x@example.test'],
    ['angle brackets', '<script>@example.test'],
    ['a closing angle bracket', 'alice>@example.test'],
    ['parentheses', 'alice(x)@example.test'],
    ['square brackets', 'alice@[127.0.0.1]'],
    ['a backslash', 'ali\\ce@example.test'],
    ['a comma', 'alice,bob@example.test'],
    ['a semicolon', 'alice;@example.test'],
    ['a colon', 'alice:x@example.test'],
    ['a double quote', '"alice"@example.test'],
    ['two at signs apart', 'alice@bob@example.test'],
    ['a fullwidth second at sign', 'alice@bob\uff20example.test'],
    ['nothing after the at', 'alice@'],
    ['an empty label', 'alice@example..test'],
    ['a leading dot in the domain', 'alice@.example.test'],
    ['a label starting with a hyphen', 'alice@-example.test'],
    ['a label ending with a hyphen', 'alice@example-.test'],
    ['a label of 64 characters', `alice@${'a'.repeat(64)}.test`],
    ['an underscore in the domain', 'alice@exa_mple.test'],
    ['a plus in the domain', 'alice@exa+mple.test'],
    ['a slash in the domain', 'alice@example.test/x'],
  ])('refuses %s with account.email_invalid', (_label, value) => {
    const e = refusal(value);
    expect(e.code).toBe('account.email_invalid');
    expect(e.params).toEqual({});
  });

  it('normalises: trims, lower-cases and takes NFKC form', () => {
    expect(readEmail('\uff41lice@example.test')).toBe('alice@example.test'); // fullwidth a
    expect(readEmail('ＡＬＩＣＥ＠ＥＸＡＭＰＬＥ．ＴＥＳＴ')).toBe('alice@example.test');
    expect(readEmail('a\u0301lice@example.test')).toBe('\u00e1lice@example.test'); // combining accent composes
    expect(readEmail('\u00c1lice@example.test')).toBe('\u00e1lice@example.test');
    expect(readEmail('\u210cello@example.test')).toBe('hello@example.test'); // black-letter H folds to a capital first
    expect(readEmail('ﬁle@example.test')).toBe('file@example.test'); // the ligature
    expect(readEmail(' \u00a0alice@example.test\u3000')).toBe('alice@example.test'); // outer spaces of any kind are trimmed
  });

  it('accepts non-ASCII letters, digits and inner hyphens in the domain', () => {
    expect(readEmail('jos\u00e9@b\u00fccher.example')).toBe('jos\u00e9@b\u00fccher.example');
    expect(readEmail('user@xn--bcher-kva.example')).toBe('user@xn--bcher-kva.example');
    expect(readEmail('user@a-1.b2.example')).toBe('user@a-1.b2.example');
    expect(readEmail(`user@${'a'.repeat(63)}.test`)).toBe(`user@${'a'.repeat(63)}.test`);
    expect(readEmail('o\'brien+tag@x.io')).toBe("o'brien+tag@x.io");
    expect(readEmail('\u043f\u0440\u0438\u043c\u0435\u0440@\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444')).toBe('пример@пример.рф');
  });

  it('is idempotent, so a stored email normalises to itself', () => {
    for (const raw of ['\u0130stanbul@example.test', '\u210c@example.test', 'ａlice@Example.Test', 'a\u0301lice@example.test', 'STRASSE@example.test', 'stra\u00dfe@example.test']) {
      const once = normalizeEmail(raw);
      expect(normalizeEmail(once)).toBe(once);
    }
  });

  it('looksLikeEmail judges a normalised email; signInEmail only normalises', () => {
    expect(looksLikeEmail('alice@example.test')).toBe(true);
    expect(looksLikeEmail('alice@example.test.')).toBe(false);
    expect(signInEmail('  ＡLICE@example.test.')).toBe('alice@example.test.');
    expect(signInEmail(7)).toBe('');
    expect(signInEmail(undefined)).toBe('');
  });

  it('counts the length after NFKC: a ligature that grows past 200 is too long', () => {
    const local = '\ufdfa'; // one character, eighteen after NFKC
    const email = local + 'a'.repeat(200 - 13 - 1) + '@example.test';
    expect([...email]).toHaveLength(200);
    const e = refusal(email);
    expect(e.code).toBe('text.too_long');
  });

  it('refuses a missing, null or blank email with text.empty for Email', () => {
    for (const value of [undefined, null, '', '   ']) {
      const e = refusal(value);
      expect(e.code).toBe('text.empty');
      expect(e.params).toEqual({ field: 'Email' });
    }
  });

  it('refuses a non-string with text.not_text', () => {
    const e = refusal(42);
    expect(e.code).toBe('text.not_text');
    expect(e.params).toEqual({ field: 'Email' });
  });

  it('accepts 200 characters and refuses 201 with text.too_long', () => {
    expect(EMAIL_MAX).toBe(200);
    const domain = '@example.com';
    const exact = 'a'.repeat(200 - domain.length) + domain;
    expect(exact).toHaveLength(200);
    expect(readEmail(exact)).toBe(exact);
    const e = refusal('a' + exact);
    expect(e.code).toBe('text.too_long');
    expect(e.params).toEqual({ field: 'Email', max: 200 });
  });
});
