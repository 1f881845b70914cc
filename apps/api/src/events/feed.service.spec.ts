import type { ActivityFeedQuery } from '@board/persistence';
import type { ProjectCaller } from '../auth/auth-context';
import { FeedService } from './feed.service';

// The read model is a small typed fake below: the adapters' library is not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));

const PROJECT = '00000000-0000-4000-8000-000000000001';
const ENTRY = '00000000-0000-4000-8000-0000000000a1';
const ANN: ProjectCaller = { userId: 'ann', kind: 'human', name: 'Ann', role: 'member', projectId: PROJECT, clientId: null };

function setUp() {
  const asked: unknown[][] = [];
  const activity: ActivityFeedQuery = { page: async (...args) => (asked.push(args), { activity: [], next: null }) };
  return { asked, service: new FeedService(activity) };
}

describe('FeedService', () => {
  it('reads the first page of the project, oldest first, 100 lines', async () => {
    const { asked, service } = setUp();
    await service.page(ANN, {});
    expect(asked).toEqual([[PROJECT, 100, null, null, 'oldest']]);
  });

  it('continues after a cursor in the order asked; an entry id alone is no cursor', async () => {
    const { asked, service } = setUp();
    await service.page(ANN, { after: '2026-03-02T10:00:00.000000Z', afterId: ENTRY, limit: 20, order: 'newest' });
    await service.page(ANN, { afterId: ENTRY });
    expect(asked).toEqual([
      [PROJECT, 20, '2026-03-02T10:00:00.000000Z', ENTRY, 'newest'],
      [PROJECT, 100, null, null, 'oldest'],
    ]);
  });
});
