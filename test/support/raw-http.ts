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
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
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
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, json });
    });
    socket.write(request);
  });
}

/** A GET of `target` (path and query as sent, unchecked) with `connection: close` and extra header lines. */
export function rawGet(api: string, target: string, extraHeaders: Record<string, string> = {}): Promise<RawAnswer> {
  const { host } = new URL(api);
  const lines = Object.entries({ host, connection: 'close', ...extraHeaders }).map(([k, v]) => `${k}: ${v}\r\n`);
  return rawRequest(api, `GET ${target} HTTP/1.1\r\n${lines.join('')}\r\n`);
}
