import type { TaskValues } from '@board/properties';
import { MAX_PROJECT_TASKS } from '@board/tasks';
import { IDS, taskWorld } from '../../../../test/support/in-memory/task-world';
import { InMemoryViewCsvQuery, InMemoryViewTaskPageQuery } from '../../../../test/support/in-memory/view-reads';
import { InMemoryViewRepository } from '../../../../test/support/in-memory/view-repository';
import { refusalCode } from '../../../../test/support/refusal-code';
import type { ProjectCaller } from '../auth/auth-context';
import { ViewExportService } from './view-export.service';

// The read models are in-memory fakes: the adapters' library is not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));

const VIEW = '00000000-0000-4000-8000-0000000000b1';
const OTHER_VIEW = '00000000-0000-4000-8000-0000000000b2';
const OTHER_PROJECT = '10000000-0000-4000-8000-000000000009';
const UNKNOWN = '00000000-0000-4000-8000-0000000000ff';

/** The CSV is a read: the service takes no unit of work, so it can declare no event. */
function setUp() {
  const w = taskWorld();
  const views = new InMemoryViewRepository();
  views.addDefault({ id: VIEW, projectId: IDS.project, name: 'Board, all', kind: 'board', groupById: IDS.status });
  views.addDefault({ id: OTHER_VIEW, projectId: OTHER_PROJECT, name: 'Theirs', kind: 'board', groupById: null });
  const pages = new InMemoryViewTaskPageQuery(w.store);
  const rows = new InMemoryViewCsvQuery(w.store);
  const service = new ViewExportService(views, w.reads.defs, w.reads.facts, pages, rows);
  const at = new Date('2026-01-05T10:00:00.000Z');
  const task = (number: number, title: string, values: TaskValues = {}) =>
    w.store.insert({ id: `00000000-0000-4000-8000-${String(number).padStart(12, '0')}`, projectId: IDS.project, number, title, description: '', position: `a${String(number).padStart(5, '0')}`, values, createdBy: IDS.owner, now: at });
  return { w, views, pages, rows, service, task };
}

const reader: ProjectCaller = { userId: IDS.ann, kind: 'human', name: 'Ann', role: 'member', projectId: IDS.project, clientId: null };

describe('ViewExportService', () => {
  it('writes the view’s tasks in its order as RFC 4180 rows: names for ids, quotes where needed, formulas neutralised', async () => {
    const { service, task } = setUp();
    task(1, 'Plain', { [IDS.status]: IDS.doing, [IDS.who]: IDS.ann, [IDS.size]: 3, [IDS.labels]: [IDS.bug, IDS.ui] });
    task(2, 'Say "hi", then\nleave');
    task(3, '=SUM(A1)');
    const { name, csv } = await service.csv(reader, VIEW);
    expect(name).toBe('Board, all');
    expect(csv.split('\r\n')).toEqual([
      'Key,Title,Status,Who,Size,Labels,Created,Updated',
      'WEB-1,Plain,Doing,Ann,3,Bug; UI,2026-01-05T10:00:00.000Z,2026-01-05T10:00:00.000Z',
      'WEB-2,"Say ""hi"", then\nleave",,,,,2026-01-05T10:00:00.000Z,2026-01-05T10:00:00.000Z',
      "WEB-3,'=SUM(A1),,,,,2026-01-05T10:00:00.000Z,2026-01-05T10:00:00.000Z",
      '',
    ]);
  });

  it('asks for the view’s shared rules and order, never a lens (everyone downloads the same file), every task at once', async () => {
    const { views, pages, service } = setUp();
    const saved = await views.find(IDS.project, VIEW);
    await views.save({
      ...(saved as NonNullable<typeof saved>),
      filters: { rules: [{ propertyId: IDS.status, op: 'is', values: [IDS.todo] }, { propertyId: UNKNOWN, op: 'is', values: [IDS.todo] }] },
      sort: { columnId: IDS.size, direction: 'desc' },
    });
    await views.putLens(IDS.project, VIEW, IDS.ann, [{ propertyId: IDS.status, op: 'is', values: [IDS.doing] }], null);
    await service.csv(reader, VIEW);
    expect(pages.requests).toEqual([
      expect.objectContaining({
        projectId: IDS.project, me: IDS.ann, after: null, limit: MAX_PROJECT_TASKS, lens: { rules: [] },
        filters: { rules: [{ propertyId: IDS.status, op: 'is', values: [IDS.todo] }] }, sort: { columnId: IDS.size, direction: 'desc' },
      }),
    ]);
  });

  it('reads the rows in bounded pieces', async () => {
    const { rows, service, task } = setUp();
    for (let n = 1; n <= 2_001; n++) task(n, `Task ${n}`);
    const { csv } = await service.csv(reader, VIEW);
    expect(rows.asked).toEqual([2_000, 1]);
    expect(csv.split('\r\n')).toHaveLength(2_003);
  });

  it('refuses an unknown view and another project’s view', async () => {
    const { service } = setUp();
    expect(await refusalCode(service.csv(reader, UNKNOWN))).toBe('view.not_found');
    expect(await refusalCode(service.csv(reader, OTHER_VIEW))).toBe('view.not_found');
  });
});
