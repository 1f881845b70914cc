import { DomainError, pgSafeText } from '@board/kernel';

const MAX_DEPTH = 64;

/**
 * Parses a request body as JSON whatever its content type, and cleans what PostgreSQL would
 * refuse later: NUL characters are removed and lone surrogates become U+FFFD, in keys and
 * values alike. Deeper nesting than any route reads is refused like unparsable JSON.
 */
export function parseJsonBody(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return clean(JSON.parse(raw), 0);
  } catch {
    // Kept, not thrown: a route that refuses before reading its body (closed sign-up) must
    // still answer its own refusal. Reading the body is what fails.
    return UNREADABLE;
  }
}

/** The body of a request whose JSON did not parse. */
export const UNREADABLE: unknown = Object.freeze({ __unreadable: Symbol('unreadable body') });

function clean(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return pgSafeText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) throw new RangeError('nested too deeply');
  if (Array.isArray(value)) return value.map((v) => clean(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    // A JSON "__proto__" key is data, never a prototype.
    Object.defineProperty(out, pgSafeText(key), { value: clean(v, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** A route body must be a JSON object; no body reads as an empty one. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (body === UNREADABLE) throw new DomainError('request.not_json');
  if (typeof body !== 'object' || Array.isArray(body)) throw new DomainError('request.not_json');
  return body as Record<string, unknown>;
}
