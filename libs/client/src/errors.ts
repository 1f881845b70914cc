/** A refusal of the service (`{ error }` at a status), or a failure to reach it at all (status 0). */
export class BoardApiError extends Error {
  override readonly name = 'BoardApiError';

  constructor(
    /** The HTTP status; 0 when the service could not be reached. */
    readonly status: number,
    /** The contract's sentence (the `error` of the answer), or what went wrong on the way. */
    message: string,
    /** The whole answer body: edit clashes carry `field` and `current` beside `error`. */
    readonly body: unknown = undefined,
  ) {
    super(message);
  }

  /** True when the service was not reached (connection refused, DNS, aborted). */
  get network(): boolean {
    return this.status === 0;
  }
}

/** Reads the `{ error }` sentence of a refusal, whatever else the body holds. */
export function errorFrom(status: number, body: unknown, statusText = ''): BoardApiError {
  const sentence =
    body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string'
      ? (body as { error: string }).error
      : `The service answered ${status}${statusText ? ` ${statusText}` : ''}.`;
  return new BoardApiError(status, sentence, body);
}

/** Wraps a failure of fetch itself (no answer) so callers see one error type. */
export function networkError(cause: unknown): BoardApiError {
  const reason = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
  return new BoardApiError(0, `Could not reach the board service: ${reason}`);
}
