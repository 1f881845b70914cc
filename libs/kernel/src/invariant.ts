/**
 * Where a value the code's own rules guarantee is missing after all: a bug, not a refusal, so it
 * throws a plain Error (an answer of 500) naming the rule that broke. Reads as `x ?? brokenInvariant('…')`.
 */
export function brokenInvariant(rule: string): never {
  throw new Error(`broken invariant: ${rule}`);
}
