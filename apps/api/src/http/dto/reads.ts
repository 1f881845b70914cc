import { FieldRule, refusalOf } from './field-rules';

/**
 * A field checked by the domain's own reader (`readEmail`, `readGivenRole`, …): its refusal is
 * the reader's, so the DTO and the aggregate cannot disagree. The value is kept as sent (the
 * reader runs again where the domain takes it); `optional` lets an absent value through.
 */
export function Reads(name: string, read: (value: unknown) => unknown, options: { optional?: boolean } = {}): PropertyDecorator {
  return FieldRule(name, (value) => (options.optional && value === undefined ? null : refusalOf(() => read(value))));
}

/** A field that is never refused here (read as the route reads it): declared for the contract's shape. */
export function Accepts(name: string): PropertyDecorator {
  return FieldRule(name, () => null);
}
