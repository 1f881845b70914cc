// One fetch wrapper: same-origin cookie session, JSON both ways, `{ error }` raised as ApiError,
// and every write tagged with this tab's clientId so the stream echo of our own change is skipped.
import { laterPosition, POSITION_HEADER } from '../../../../libs/client/src/write-position';

export const CLIENT_ID = `web-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;

export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly body: Record<string, unknown>) {
    super(message);
  }
}

let signedOut: (() => void) | null = null;
/** Called when a call answers 401 outside the sign-in routes: the session ended elsewhere. */
export function onSignedOut(fn: () => void): void {
  signedOut = fn;
}

// The newest write position an answer told this tab of (read replicas): sent back on every call so
// a replica answers only once it shows our writes. The session's `service_lsn` cookie does the same
// for other tabs and after a reload; this one also holds when two writes answer out of order.
let position: string | undefined;

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-service-client'] = CLIENT_ID;
  if (position) headers[POSITION_HEADER] = position;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`/api${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  position = laterPosition(position, res.headers.get(POSITION_HEADER));
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = { error: text };
  }
  if (res.status === 401 && !path.startsWith('/auth/')) signedOut?.();
  if (!res.ok) {
    const answer = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    throw new ApiError(res.status, typeof answer.error === 'string' ? answer.error : `The service answered ${res.status}.`, answer);
  }
  return parsed as T;
}

export const get = <T = unknown>(path: string) => api<T>('GET', path);
export const post = <T = unknown>(path: string, body?: unknown) => api<T>('POST', path, body ?? {});
export const put = <T = unknown>(path: string, body?: unknown) => api<T>('PUT', path, body ?? {});
export const patch = <T = unknown>(path: string, body?: unknown) => api<T>('PATCH', path, body ?? {});
export const del = <T = unknown>(path: string) => api<T>('DELETE', path);

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
