import { FieldRule, type FieldSchema, refusalOf } from './field-rules';

/**
 * A field checked by the domain's own reader (`readEmail`, `readGivenRole`, …): its refusal is
 * the reader's, so the DTO and the aggregate cannot disagree. The value is kept as sent (the
 * reader runs again where the domain takes it); `optional` lets an absent value through. `doc`
 * is what the API document says the field accepts.
 */
export function Reads(name: string, read: (value: unknown) => unknown, options: { optional?: boolean; doc?: FieldSchema } = {}): PropertyDecorator {
  return FieldRule(name, (value) => (options.optional && value === undefined ? null : refusalOf(() => read(value))), options.doc);
}

/** A field that is never refused here (read as the route reads it): declared for the contract's shape. */
export function Accepts(name: string, doc?: FieldSchema): PropertyDecorator {
  return FieldRule(name, () => null, doc);
}
