import { DomainError } from '@board/kernel';
import { EMAIL_MAX, readEmail } from './email';

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
  ])('refuses %s with account.email_invalid', (_label, value) => {
    const e = refusal(value);
    expect(e.code).toBe('account.email_invalid');
    expect(e.params).toEqual({});
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
