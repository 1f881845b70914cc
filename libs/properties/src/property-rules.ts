import { fail, fieldLabel, InTurn, inTurn, parseId, readInTurn, readText } from '@board/kernel';
import { PROPERTY_NAME_MAX } from './property-type';
import { PropertyDef, WhenRule } from './property';
import { isCalendarDay } from './value';

/** Most characters of a dated option's markdown note. */
export const OPTION_NOTE_MAX = 8000;

export function readPropertyName(value: unknown, required: true): string;
export function readPropertyName(value: unknown, required: boolean): string | undefined;
export function readPropertyName(value: unknown, required: boolean): string | undefined {
  return readText(value, 'name', { max: PROPERTY_NAME_MAX, required });
}

/** A boolean body field: anything else is "<Field> is true or false." */
export function readBoolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') fail('input.boolean', { field: fieldLabel(field) });
  return value as boolean;
}

/**
 * A `when` rule as its request DTO read it: the select's id, and its options. Whether the id
 * names a select of the project is stored state (`checkWhenRule`), and the contract refuses the
 * options' shape only after it, so their reading waits its turn.
 */
export interface WhenAsked {
  propertyId: string;
  optionIds: InTurn<string[]>;
}

/** A `when` rule as sent: null (every task), or `{ propertyId, optionIds }`; other shapes are refused. */
export function readWhenAsked(value: unknown): WhenAsked | null {
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) fail('property.when_invalid');
  const v = value as Record<string, unknown>;
  const propertyId = parseId(v.propertyId, 'property');
  return { propertyId, optionIds: readInTurn(() => readWhenOptions(v.optionIds)) };
}

/** At least one option id, in lower case, each once. */
function readWhenOptions(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) fail('property.when_invalid');
  return [...new Set((value as unknown[]).map((o) => parseId(o, 'option')))];
}

/**
 * A `when` rule against the project's properties: it names a select of the project (not the
 * property itself) and at least one of its options.
 */
export function checkWhenRule(asked: WhenAsked | null, selfId: string, properties: readonly PropertyDef[]): WhenRule | null {
  if (asked === null) return null;
  const { propertyId } = asked;
  const target = properties.find((p) => p.id === propertyId);
  if (!target || target.id === selfId || target.type !== 'select') fail('property.when_invalid');
  const optionIds = inTurn(asked.optionIds);
  if (optionIds.some((o) => !target.optionIds.has(o))) fail('property.when_invalid');
  return { propertyId, optionIds };
}

/** `"A", "B"`: view names as the grouped-by refusal lists them. */
export const quoteNames = (names: readonly string[]): string => names.map((n) => `"${n}"`).join(', ');

/**
 * A day field of a dated option (`startsOn`, `targetOn`): `YYYY-MM-DD` or null. Answers undefined
 * when the key was not sent.
 */
export function readOptionDay(value: unknown, field: string): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value !== 'string' || !isCalendarDay(value)) fail('value.date', { name: fieldLabel(field) });
  return value as string;
}

/** A dated option's note: markdown, at most 8000 characters; null or blank stores null. */
export function readOptionNote(value: unknown): string | null | undefined {
  if (value === undefined) return undefined;
  const note = readText(value, 'note', { max: OPTION_NOTE_MAX, allowEmpty: true });
  return note ? note : null;
}

/**
 * Settings only the owner or an admin may change, and only as a person: a token gets "Only a
 * person can do this.", a member "Only the owner or an admin can <what>."
 */
export function assertAdminPerson(actor: { kind: string; role: string }, what: string): void {
  if (actor.kind !== 'human') fail('gate.human');
  if (actor.role !== 'owner' && actor.role !== 'admin') fail('gate.admin', { what });
}

/** Do two JSON values say the same, whatever the order of their object keys (jsonb sorts them)? */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
