/**
 * The project stream (interface.md › Events › Stream) as an async iterator of typed events, read
 * with `fetch` (so a bearer token can be sent, which EventSource cannot) in Node 20 and browsers.
 * After the connection drops it waits the server's `retry` (3000 ms) and connects again; the server
 * sends `ready` on every connect and the iterator passes each one on, so the consumer re-reads what
 * it shows (a change may have been missed while disconnected). A refusal (401, 403, 404, 400) ends
 * the iteration with a BoardApiError: a revoked token or a removed member must not retry forever.
 */
import { BoardApiError, errorFrom, networkError } from './errors';

/** A `change` event (interface.md › Events › Stream): that something changed and where, never what. */
export interface ChangeEvent {
  projectId: string;
  scope: 'board' | 'task' | 'project';
  /** Present on task-scoped events. */
  taskId?: string;
  /** The `x-service-client` of the writer, or null. */
  clientId: string | null;
}

/** A `presence` event: which task (and field) a person's tab has open; not a change, never a reason to refetch. */
export interface PresenceEvent {
  projectId: string;
  kind: 'presence';
  clientId: string;
  userId: string;
  taskId: string | null;
  field: string | null;
}

export type StreamEvent = { type: 'ready' } | { type: 'change'; data: ChangeEvent } | { type: 'presence'; data: PresenceEvent };

export interface StreamOptions {
  /** Stops the iteration (and the connection) when aborted. */
  signal?: AbortSignal;
  /** Reconnect delay until the server sends its own `retry:` line. */
  retryMs?: number;
  /** Told of each dropped connection or failed reconnect before the next try (for logs and status lights). */
  onDisconnect?: (error: BoardApiError | null) => void;
}

export interface StreamRequest {
  url: string;
  headers: () => Record<string, string>;
  fetch: typeof fetch;
  credentials?: RequestInit['credentials'];
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });

/** Parses one SSE block (lines up to a blank line) into its field values. */
function parseBlock(block: string): { event: string; data: string; retry?: number } {
  let event = 'message';
  const data: string[] = [];
  let retry: number | undefined;
  for (const line of block.split(/\r?\n/)) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'retry' && /^[0-9]+$/.test(value)) retry = Number(value);
  }
  return { event, data: data.join('\n'), retry };
}

function typed(event: string, data: string): StreamEvent | null {
  if (event === 'ready') return { type: 'ready' };
  if (event !== 'change' && event !== 'presence') return null; // unknown events are skipped: the API only adds
  try {
    return { type: event, data: JSON.parse(data) } as StreamEvent;
  } catch {
    return null;
  }
}

export async function* openStream(request: StreamRequest, options: StreamOptions = {}): AsyncGenerator<StreamEvent, void, undefined> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  options.signal?.addEventListener('abort', onAbort);
  if (options.signal?.aborted) stop.abort();
  let retry = options.retryMs ?? 3000;
  try {
    while (!stop.signal.aborted) {
      let response: Response;
      try {
        response = await request.fetch(request.url, { headers: { accept: 'text/event-stream', ...request.headers() }, credentials: request.credentials, signal: stop.signal });
      } catch (error) {
        if (stop.signal.aborted) return;
        // A refusal before any answer (a redirect to another address) is not a dropped line: trying again cannot help.
        if (error instanceof BoardApiError && !error.network) throw error;
        options.onDisconnect?.(networkError(error));
        await sleep(retry, stop.signal);
        continue;
      }
      if (!response.ok || !response.body) {
        const text = await response.text().catch(() => '');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        const error = errorFrom(response.status, body, response.statusText);
        if (response.status < 500) throw error;
        options.onDisconnect?.(error);
        await sleep(retry, stop.signal);
        continue;
      }
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let at: number;
          while ((at = buffer.search(/\r?\n\r?\n/)) >= 0) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at).replace(/^\r?\n\r?\n/, '');
            const parsed = parseBlock(block);
            if (parsed.retry !== undefined) retry = parsed.retry;
            const event = parsed.data || parsed.event !== 'message' ? typed(parsed.event, parsed.data) : null;
            if (event) yield event;
          }
        }
        if (!stop.signal.aborted) options.onDisconnect?.(null);
      } catch (error) {
        if (stop.signal.aborted) return;
        options.onDisconnect?.(networkError(error));
      } finally {
        await reader.cancel().catch(() => undefined);
      }
      await sleep(retry, stop.signal);
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    stop.abort();
  }
}
