import fc from 'fast-check';

/** What a property's random values are drawn from. */
export interface ValueSource {
  /** The property's live options (select, iteration, multi_select). */
  optionIds: readonly string[];
  userIds: readonly string[];
  text: fc.Arbitrary<string>;
  numbers: readonly number[];
  /** Integers within ±range, doubles within ±2·range. */
  range: number;
  days: readonly string[];
  links: readonly string[];
}

/** A random value of a property of `type` as the service's validator stores it (never empty). */
export function storedValueArb(type: string, from: ValueSource): fc.Arbitrary<unknown> {
  switch (type) {
    case 'select':
    case 'iteration':
      return fc.constantFrom(...from.optionIds);
    case 'multi_select':
      return fc.subarray([...from.optionIds], { minLength: 1 });
    case 'person':
      return fc.constantFrom(...from.userIds);
    case 'text':
      return from.text;
    case 'number':
      return fc.oneof(
        fc.constantFrom(...from.numbers),
        fc.integer({ min: -from.range, max: from.range }),
        fc.double({ noNaN: true, noDefaultInfinity: true, min: -2 * from.range, max: 2 * from.range }),
      );
    case 'date':
      return fc.constantFrom(...from.days);
    case 'checkbox':
      return fc.boolean();
    default:
      return fc.uniqueArray(fc.constantFrom(...from.links), { minLength: 1, maxLength: 3 });
  }
}
