import { fail } from './domain-error';

export interface TextRule {
  /** Most characters allowed after trimming. */
  max?: number;
  /** Missing or null is refused with "<Field> cannot be empty." */
  required?: boolean;
  /** Empty after trimming is allowed (a description may be cleared). */
  allowEmpty?: boolean;
  /** Passwords are taken as sent. */
  trim?: boolean;
}

/** "title" -> "Title": the contract's <Field> is the body key with a capital first letter. */
export const fieldLabel = (field: string): string => field.charAt(0).toUpperCase() + field.slice(1);

/** Length in characters as a person counts them (code points), not UTF-16 units. */
export const charLength = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/**
 * The three standard string refusals. Returns undefined for an optional field that was not sent.
 */
export function readText(value: unknown, field: string, rule: TextRule & { required: true }): string;
export function readText(value: unknown, field: string, rule?: TextRule): string | undefined;
export function readText(value: unknown, field: string, rule: TextRule = {}): string | undefined {
  const label = fieldLabel(field);
  if (value === undefined || value === null) {
    if (rule.required || value === null) {
      if (value === null && rule.allowEmpty) return '';
      fail('text.empty', { field: label });
    }
    return undefined;
  }
  if (typeof value !== 'string') fail('text.not_text', { field: label });
  const text = rule.trim === false ? value : value.trim();
  if (text.length === 0 && !rule.allowEmpty) fail('text.empty', { field: label });
  if (rule.max !== undefined && charLength(text) > rule.max) fail('text.too_long', { field: label, max: rule.max });
  return text;
}

/** A UTF-16 half with no other half: PostgreSQL refuses it in text and encodeURIComponent throws on it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text with each lone surrogate replaced by U+FFFD (String.prototype.toWellFormed, before Node 20's lib types have it). */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/** Text PostgreSQL takes: NUL removed (text and jsonb refuse it), lone surrogates made U+FFFD. */
export function pgSafeText(text: string): string {
  return wellFormed(text).replace(/\u0000/g, '');
}
