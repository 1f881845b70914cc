import { BoardApiError } from './errors';
import { openStream, type StreamEvent } from './stream';

/** A fetch that answers each call from a list: a status, or the stream's text cut into the given chunks. */
function scripted(answers: ({ status: number; body?: string } | string[])[]) {
  const calls: RequestInit[] = [];
  const fetchImpl = (async (_url: unknown, init?: RequestInit) => {
    calls.push(init ?? {});
    const answer = answers.shift();
    if (!answer) return new Promise<Response>(() => undefined); // hangs like a quiet stream
    if (!Array.isArray(answer)) return new Response(answer.body ?? '', { status: answer.status });
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of answer) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  }) as typeof fetch;
  return { fetchImpl, calls };
}

async function take(iterator: AsyncGenerator<StreamEvent>, count: number): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of iterator) {
    out.push(event);
    if (out.length === count) break;
  }
  return out;
}

describe('openStream', () => {
  it('parses events cut at any byte, CRLF lines, comments and unknown events, and reconnects after retry', async () => {
    const change = JSON.stringify({ projectId: 'p', scope: 'task', taskId: 't', clientId: null });
    const { fetchImpl, calls } = scripted([
      ['retry: 1', '0\n\nevent: ready\ndata: {}\n', '\n: ping\n\nevent: chan', `ge\r\ndata: ${change.slice(0, 9)}`, `${change.slice(9)}\r\n\r\nevent: other\ndata: {}\n\n`],
      { status: 503, body: '{"error":"Down."}' },
      ['event: ready\ndata: {}\n\nevent: presence\ndata: {"kind":"presence","taskId":null}\n\n'],
    ]);
    const drops: (BoardApiError | null)[] = [];
    const events = await take(openStream({ url: 'x', headers: () => ({ authorization: 'Bearer svc_a' }), fetch: fetchImpl }, { onDisconnect: (e) => drops.push(e) }), 4);
    expect(events).toEqual([
      { type: 'ready' },
      { type: 'change', data: JSON.parse(change) },
      { type: 'ready' },
      { type: 'presence', data: { kind: 'presence', taskId: null } },
    ]);
    expect(drops.map((d) => d && [d.status, d.message])).toEqual([null, [503, 'Down.']]);
    expect(calls).toHaveLength(3);
    expect(calls[0].headers).toEqual({ accept: 'text/event-stream', authorization: 'Bearer svc_a' });
  });

  it('ends with the refusal on a 4xx instead of retrying', async () => {
    const { fetchImpl, calls } = scripted([{ status: 401, body: '{"error":"That token is not valid any more."}' }]);
    const failure = await take(openStream({ url: 'x', headers: () => ({}), fetch: fetchImpl }), 1).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BoardApiError);
    expect([(failure as BoardApiError).status, (failure as BoardApiError).message]).toEqual([401, 'That token is not valid any more.']);
    expect(calls).toHaveLength(1);
  });

  it('stops when the signal aborts, even while waiting to reconnect', async () => {
    const { fetchImpl } = scripted([['event: ready\ndata: {}\n\n']]);
    const stop = new AbortController();
    const seen: StreamEvent[] = [];
    const started = Date.now();
    for await (const event of openStream({ url: 'x', headers: () => ({}), fetch: fetchImpl }, { signal: stop.signal, retryMs: 60_000 })) {
      seen.push(event);
      setTimeout(() => stop.abort(), 20);
    }
    expect(seen).toEqual([{ type: 'ready' }]);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
