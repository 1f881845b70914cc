import type { SearchQuery, SearchResult } from '@board/persistence';
import { refusalCode } from '../../../../test/support/refusal-code';
import type { AuthContext, Caller } from '../auth/auth-context';
import { SEARCH_LIMIT_DEFAULT } from './search.dto';
import { SearchService } from './search.service';

// The read model is a small typed fake below: the adapters' library is not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));

const P1 = '00000000-0000-4000-8000-000000000001';
const P2 = '00000000-0000-4000-8000-000000000002';
const person: AuthContext = { via: 'session', sessionDigest: 'd', sessionExpiresAt: new Date(), caller: { id: 'ann', kind: 'human' } as Caller };
const agent: AuthContext = { via: 'token', tokenDigest: 'd', tokenProjectId: P1, caller: { id: 'bot', kind: 'agent' } as Caller };

function setUp() {
  const asked: { projectIds: readonly string[]; q: string; limit: number }[] = [];
  const memberships: Record<string, string[]> = { ann: [P1, P2] };
  const queries: SearchQuery = {
    search: async (projectIds, q, limit): Promise<SearchResult> => (asked.push({ projectIds, q, limit }), { hits: [], total: 0 }),
    projectsOf: async (userId, projectId) => (memberships[userId] ?? []).filter((p) => projectId === null || p === projectId),
  };
  return { asked, service: new SearchService(queries) };
}

describe('SearchService', () => {
  it('searches every project of a person, or the one named, with the default page size', async () => {
    const { asked, service } = setUp();
    await service.search(person, { q: 'login' });
    await service.search(person, { q: 'login', projectId: P2, limit: 5 });
    expect(asked).toEqual([
      { projectIds: [P1, P2], q: 'login', limit: SEARCH_LIMIT_DEFAULT },
      { projectIds: [P2], q: 'login', limit: 5 },
    ]);
  });

  it('keeps an agent to its token’s project', async () => {
    const { asked, service } = setUp();
    await service.search(agent, {});
    expect(asked).toEqual([{ projectIds: [P1], q: '', limit: SEARCH_LIMIT_DEFAULT }]);
    expect(await refusalCode(service.search(agent, { projectId: P2 }))).toBe('auth.token_other_project');
  });

  it('finds no project a person is not in, so existence never leaks', async () => {
    const { asked, service } = setUp();
    expect(await refusalCode(service.search({ ...person, caller: { id: 'ben', kind: 'human' } as Caller }, { projectId: P1 }))).toBe('project.not_found');
    expect(asked).toEqual([]);
  });
});
