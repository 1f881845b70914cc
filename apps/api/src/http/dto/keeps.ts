import { FieldRule, refusalOf, type FieldSchema } from './field-rules';

/**
 * A field read by the domain's own reader, keeping what the reader answers: the DTO is then the
 * typed command itself (a normalised email, a question read into its parts) and nobody reads the
 * field again. Refusals are the reader's, in the class's field order, like `@Reads`. `optional`
 * lets an absent value through untouched; `skip` leaves the field unread (and unset) when an
 * earlier field of the DTO says so (a heartbeat reads nothing else).
 */
export function Keeps(
  name: string,
  read: (value: unknown) => unknown,
  options: { optional?: boolean; doc?: FieldSchema; skip?: (dto: object) => boolean } = {},
): PropertyDecorator {
  return (target, key) =>
    FieldRule(
      name,
      (value, dto) => {
        if (options.skip?.(dto)) {
          (dto as Record<string | symbol, unknown>)[key] = undefined;
          return null;
        }
        if (options.optional && value === undefined) return null;
        let kept: unknown;
        const refusal = refusalOf(() => {
          kept = read(value);
        });
        // The pipe checks each field once, in order: a passing check leaves the read value in place.
        if (refusal === null) (dto as Record<string | symbol, unknown>)[key] = kept;
        return refusal;
      },
      options.doc,
    )(target, key);
}
