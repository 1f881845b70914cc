import { BoardApiError } from './errors';
import { sameOriginOnly } from './redirects';

/** A fetch that answers from a function of the request, and remembers what it was sent. */
function scripted(answer: (request: Request) => Response) {
  const sent: { method: string; url: string; body: string; auth: string | null }[] = [];
  const fetchImpl = (async (input: Request, init?: RequestInit) => {
    const request = new Request(input, init);
    expect(init?.redirect).toBe('manual');
    sent.push({ method: request.method, url: request.url, body: await request.clone().text(), auth: request.headers.get('authorization') });
    return answer(request);
  }) as unknown as typeof fetch;
  return { fetchImpl, sent };
}

const redirect = (status: number, location: string) => new Response(null, { status, headers: { location } });

describe('sameOriginOnly', () => {
  it('stops at a redirect to another origin, naming both, and sends nothing there', async () => {
    const { fetchImpl, sent } = scripted(() => redirect(302, 'https://elsewhere.example:8443/api/agent/me'));
    const failure = await sameOriginOnly(fetchImpl)('http://board.example/api/agent/me', { headers: { authorization: 'Bearer svc_x' } }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BoardApiError);
    expect((failure as BoardApiError).network).toBe(false);
    expect((failure as BoardApiError).message).toBe(
      'The board at http://board.example redirected to https://elsewhere.example:8443, another address, and board-agent follows no redirect there. Set BOARD_URL to the address that answers.',
    );
    expect(sent.map((s) => s.url)).toEqual(['http://board.example/api/agent/me']);
  });

  it('counts another scheme or port as another origin', async () => {
    for (const location of ['https://board.example/api/x', 'http://board.example:8080/api/x']) {
      const { fetchImpl } = scripted(() => redirect(301, location));
      await expect(sameOriginOnly(fetchImpl)('http://board.example/api/x')).rejects.toThrow(/another address/);
    }
  });

  it('follows redirects within the origin: a 307 resends its body, a 303 becomes a GET without one', async () => {
    const { fetchImpl, sent } = scripted((request) => {
      const path = new URL(request.url).pathname;
      if (path === '/old/claim') return redirect(307, '/new/claim');
      if (path === '/new/claim') return redirect(303, '/done');
      return new Response('{"ok":true}', { status: 200 });
    });
    const res = await sameOriginOnly(fetchImpl)('http://board.example/old/claim', { method: 'POST', body: '{"goal":"g"}', headers: { authorization: 'Bearer svc_x' } });
    expect(res.status).toBe(200);
    expect(sent).toEqual([
      { method: 'POST', url: 'http://board.example/old/claim', body: '{"goal":"g"}', auth: 'Bearer svc_x' },
      { method: 'POST', url: 'http://board.example/new/claim', body: '{"goal":"g"}', auth: 'Bearer svc_x' },
      { method: 'GET', url: 'http://board.example/done', body: '', auth: 'Bearer svc_x' },
    ]);
  });

  it('gives up after ten hops', async () => {
    const { fetchImpl } = scripted(() => redirect(302, '/again'));
    await expect(sameOriginOnly(fetchImpl)('http://board.example/again')).rejects.toThrow('redirected more than 10 times');
  });

  it('hands any other answer back as it is', async () => {
    const { fetchImpl } = scripted(() => new Response('{"error":"Not found."}', { status: 404 }));
    expect((await sameOriginOnly(fetchImpl)('http://board.example/api/nowhere')).status).toBe(404);
  });
});
