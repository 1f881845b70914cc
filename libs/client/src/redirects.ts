import { BoardApiError } from './errors';

/** More hops than any sane deployment needs (http → https, a trailing slash). */
const MAX_HOPS = 10;

/**
 * A fetch that follows redirects only within the origin it was sent to: a redirect to another
 * origin stops with a sentence naming both addresses, before anything (the token, a body) is
 * sent there, and its answer is never used (decisions › Fair use: the agent CLI and MCP server
 * follow no redirect to another origin). Same-origin redirects are followed as fetch would
 * (303, and 301/302 after a POST, become a GET without a body). For Node (the agent): with
 * `redirect: 'manual'` a browser hides the location.
 */
export function sameOriginOnly(base: typeof fetch): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    let request = new Request(input, init);
    for (let hop = 0; ; hop++) {
      // Kept before sending: a 307/308 sends the same body again.
      const spare = request.clone();
      const response = await base(request, { redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || response.status === 304 || location === null) return response;
      const from = new URL(request.url);
      const to = new URL(location, from);
      await response.body?.cancel().catch(() => undefined);
      if (to.origin !== from.origin) {
        throw new BoardApiError(
          response.status,
          `The board at ${from.origin} redirected to ${to.origin}, another address, and board-agent follows no redirect there. Set BOARD_URL to the address that answers.`,
        );
      }
      if (hop >= MAX_HOPS) throw new BoardApiError(response.status, `The board at ${from.origin} redirected more than ${MAX_HOPS} times.`);
      const asGet = response.status === 303 || ((response.status === 301 || response.status === 302) && spare.method === 'POST');
      const method = asGet && spare.method !== 'HEAD' ? 'GET' : spare.method;
      const body = asGet || method === 'GET' || method === 'HEAD' ? undefined : await spare.arrayBuffer();
      const headers = new Headers(spare.headers);
      if (asGet) {
        headers.delete('content-type');
        headers.delete('content-length');
      }
      request = new Request(to, { method, headers, body, signal: spare.signal });
    }
  }) as typeof fetch;
}
