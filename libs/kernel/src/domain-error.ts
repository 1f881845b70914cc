/**
 * The generic refusals, by stable code: request shape, ids and text, access gates, fair use. Each
 * domain lib lists its own codes beside the rules that raise them (`libs/<lib>/src/<name>.errors.ts`)
 * and adds them to `ErrorCodes` by declaration merging; `ErrorCode` is the union of them all. The
 * HTTP layer maps each code to its status and contract message in one exhaustive table, so a new code
 * that lacks a message does not compile (and test/architecture/error-codes.test.ts checks it too).
 */
export const KERNEL_ERROR_CODES = [
  'request.not_json',
  'request.too_large',
  'request.not_found',
  'id.invalid',
  'text.not_text',
  'text.empty',
  'text.too_long',
  'gate.human',
  'gate.admin',
  'gate.owner',
  'gate.agent',
  'input.boolean',
  'request.bad_address',
  'request.address_too_long',
  'request.headers_too_large',
  'request.too_slow',
  'query.limit_invalid',
  'server.busy',
  'heavy.too_many',
] as const;

/** Every code any lib may raise: the kernel's, merged with each lib's `*.errors.ts`. */
export interface ErrorCodes extends Record<(typeof KERNEL_ERROR_CODES)[number], true> {}

export type ErrorCode = keyof ErrorCodes & string;

export type ErrorParams = Record<string, string | number>;

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly params: ErrorParams = {},
    /** Extra keys the answer carries beside `error` (a clash's `field` and `current`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(code);
    this.name = 'DomainError';
  }
}

/** A declaration (not an arrow) returning `never`, so TypeScript narrows after a call to it. */
export function fail(code: ErrorCode, params?: ErrorParams, extra?: Record<string, unknown>): never {
  throw new DomainError(code, params, extra);
}
