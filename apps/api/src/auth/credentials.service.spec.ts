import { digestOf, SESSION_COOKIE } from '@board/accounts';
import { NoMetrics, type Notice, type NoticeFeed } from '@board/kernel';
import type { CredentialChanges, CredentialQuery } from '@board/persistence';
import { Subject } from 'rxjs';
import type { FastifyRequest } from 'fastify';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { refusalCode } from '../../../../test/support/refusal-code';
import type { AppConfig } from '../config/app-config';
import { CredentialCache } from './credential-cache';
import { CredentialsService } from './credentials.service';

// The read models' library (typeorm, pg) stays unloaded: the spec hands the service typed fakes.
jest.mock('@board/persistence', () => ({}));

const person = { id: 'ann', email: 'ann@example.com', name: 'Ann', color: '#2f80ed', emoji: null, kind: 'human' as const };
const agent = { id: 'bot', email: null, name: 'Bot', color: '#2f80ed', emoji: null, kind: 'agent' as const };

/** The credential read model, typed to its two queries: a session and a token it knows, and every lookup it was asked. */
class KnownCredentials implements CredentialQuery {
  readonly asked: string[] = [];

  async personBySession(digest: string) {
    this.asked.push(`session:${digest}`);
    return digest === digestOf('sess-1') ? { ...person, expiresAt: new Date('2030-01-01') } : null;
  }

  async agentByToken(digest: string) {
    this.asked.push(`token:${digest}`);
    return digest === digestOf('svc_good') ? { ...agent, projectId: 'p1', scope: { projectId: 'p1', role: 'member' as const } } : null;
  }
}

/** No notices, no commits: what the service keeps is forgotten only by time. */
const quiet: NoticeFeed = { stream: new Subject<Notice>().asObservable(), listening: true };
const noCommits: CredentialChanges = { watch: () => () => undefined };

function setUp(cacheMs = 0) {
  const credentials = new KnownCredentials();
  const clock = new SteppedClock();
  const cache = new CredentialCache({ SERVICE_CREDENTIAL_CACHE_MS: cacheMs } as AppConfig, quiet, noCommits, clock, new NoMetrics());
  return { credentials, service: new CredentialsService(credentials, clock, cache) };
}

const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;

describe('CredentialsService', () => {
  it('takes an agent token first, with the scope its query resolved', async () => {
    const { service } = setUp();
    const { auth, scope } = await service.authenticate(request({ authorization: 'Bearer svc_good', cookie: `${SESSION_COOKIE}=sess-1` }), false);
    expect(auth).toMatchObject({ via: 'token', caller: { id: 'bot', kind: 'agent' }, tokenProjectId: 'p1' });
    expect(scope).toEqual({ projectId: 'p1', role: 'member' });
  });

  it('reads the cookie when the route is cookie-only, or the bearer is not an agent token', async () => {
    const { service } = setUp();
    const cookie = `${SESSION_COOKIE}=sess-1`;
    expect((await service.authenticate(request({ authorization: 'Bearer svc_good', cookie }), true)).auth).toMatchObject({ via: 'session', caller: { id: 'ann' } });
    expect((await service.authenticate(request({ authorization: 'Bearer proxy-token', cookie }), false)).auth.via).toBe('session');
  });

  it('refuses an unknown token, and a request with no live credential', async () => {
    const { service } = setUp();
    expect(await refusalCode(service.authenticate(request({ authorization: 'Bearer svc_bad' }), false))).toBe('auth.token_invalid');
    expect(await refusalCode(service.authenticate(request({ cookie: `${SESSION_COOKIE}=expired` }), false))).toBe('auth.signin_required');
    expect(await refusalCode(service.authenticate(request({}), false))).toBe('auth.signin_required');
  });

  it('looks a request up once however often it is asked the same', async () => {
    const { service, credentials } = setUp();
    const one = request({ cookie: `${SESSION_COOKIE}=sess-1` });
    await service.authenticate(one, true);
    expect(await service.refusalOf(one, true)).toBeNull();
    expect(credentials.asked).toHaveLength(1);
    await service.authenticate(one, true, { kind: 'project', id: 'p1' });
    expect(credentials.asked).toHaveLength(2);
  });

  it('answers the next requests of a credential from its cache, and never keeps a refusal', async () => {
    const { service, credentials } = setUp(5000);
    for (let i = 0; i < 3; i++) {
      expect((await service.authenticate(request({ cookie: `${SESSION_COOKIE}=sess-1` }), true)).auth).toMatchObject({ via: 'session', caller: { id: 'ann' } });
      expect((await service.authenticate(request({ authorization: 'Bearer svc_good' }), false)).auth).toMatchObject({ via: 'token', tokenProjectId: 'p1' });
      expect(await refusalCode(service.authenticate(request({ authorization: 'Bearer svc_bad' }), false))).toBe('auth.token_invalid');
    }
    expect(credentials.asked).toEqual([`session:${digestOf('sess-1')}`, `token:${digestOf('svc_good')}`, ...Array(3).fill(`token:${digestOf('svc_bad')}`)]);
  });
});
