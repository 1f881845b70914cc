import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: unknown;
}

/**
 * Sends bytes as they are on a plain socket and reads the answer until the server closes
 * (`connection: close`): for requests fetch would refuse to send or would clean up first.
 */
export function rawRequest(api: string, request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(api);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (e) => (chunks.length ? undefined : reject(e)));
    socket.on('close', () => resolve(parseRaw(Buffer.concat(chunks).toString('utf8'))));
    socket.write(request);
  });
}

/** A GET of `target` (path and query as sent, unchecked) with `connection: close` and extra header lines. */
export function rawGet(api: string, target: string, extraHeaders: Record<string, string> = {}): Promise<RawAnswer> {
  const { host } = new URL(api);
  const lines = Object.entries({ host, connection: 'close', ...extraHeaders }).map(([k, v]) => `${k}: ${v}\r\n`);
  return rawRequest(api, `GET ${target} HTTP/1.1\r\n${lines.join('')}\r\n`);
}

/** An open socket: write the request piece by piece; `answer` settles when the server closes it. */
export interface RawExchange {
  write(bytes: string | Buffer): void;
  /** The answer read until the server closed the connection; rejects after `deadlineMs`. */
  answer: Promise<RawAnswer & { closedAfterMs: number }>;
  /** True once the server has closed (or reset) the connection. */
  closed(): boolean;
  destroy(): void;
}

/**
 * Opens a socket to the API and leaves the sending to the test: headers without their body, a
 * body dripped byte by byte. The answer is read until the server closes the connection.
 */
export function rawExchange(api: string, deadlineMs = 10_000): RawExchange {
  const { hostname, port } = new URL(api);
  const socket = connect(Number(port), hostname);
  const started = Date.now();
  const chunks: Buffer[] = [];
  let isClosed = false;
  const answer = new Promise<RawAnswer & { closedAfterMs: number }>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer and no close within ${deadlineMs} ms (got ${Buffer.concat(chunks).length} bytes)`));
    }, deadlineMs);
    socket.on('data', (c) => chunks.push(c));
    // The server may close while the client still writes (EPIPE, ECONNRESET): the answer counts.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      isClosed = true;
      clearTimeout(timer);
      resolve({ ...parseRaw(Buffer.concat(chunks).toString('utf8')), closedAfterMs: Date.now() - started });
    });
  });
  return {
    write: (bytes) => {
      if (!socket.destroyed && socket.writable) socket.write(bytes);
    },
    answer,
    closed: () => isClosed,
    destroy: () => socket.destroy(),
  };
}

function parseRaw(text: string): RawAnswer {
  const at = text.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = text.slice(0, at).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(at + 4);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number((statusLine ?? '').split(' ')[1]), headers, body, json };
}
