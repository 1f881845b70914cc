import { readTrelloExport } from '@board/imports';
import { OPTION_COLORS } from '@board/kernel';
import { MAX_PROJECT_TASKS } from '@board/tasks';
import { ProjectCaller } from '../auth/auth-context';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { InMemoryImportRepository } from '../../../../test/support/in-memory/import-repository';
import { RecordingUnitOfWork } from '../../../../test/support/recording-unit-of-work';
import { refusalCode } from '../../../../test/support/refusal-code';
import { ImportsService } from './imports.service';

const caller: ProjectCaller = { userId: 'ann', kind: 'human', name: 'Ann', role: 'owner', projectId: 'p1', clientId: 'tab-1' };

const BOARD = readTrelloExport({
  lists: [{ id: 'l1', name: 'To Do', closed: false, pos: 1 }],
  labels: [],
  cards: [
    { id: 'c1', name: 'First', idList: 'l1', pos: 1, closed: false, desc: '', due: null, idLabels: [] },
    { id: 'c2', name: 'Second', idList: 'l1', pos: 2, closed: false, desc: '', due: null, idLabels: [] },
  ],
  checklists: [],
  actions: [],
});

function setUp(taskCount = 0) {
  const store = new InMemoryImportRepository();
  const uow = new RecordingUnitOfWork();
  store.heads.set('p1', {
    key: 'TB',
    lastTaskRank: null,
    taskCount,
    imported: new Map(),
    properties: [
      { id: 'status', name: 'Status', type: 'select', position: 'a0', options: ['To do', 'Done'].map((name, i) => ({ id: `s${i}`, name, color: OPTION_COLORS[i], position: `a${i}` })) },
    ],
  });
  return { store, uow, service: new ImportsService(store, uow, new SteppedClock()) };
}

describe('ImportsService', () => {
  it('imports in one write under the project lock: an import line per task ringing each webhook once, and one board notice', async () => {
    const { service, store, uow } = setUp();
    expect(await service.import(caller, BOARD)).toEqual({ imported: 2, skipped: [] });
    expect(store.written).toHaveLength(1);
    expect(uow.writes.map((w) => w.options)).toEqual([{ lockProject: 'p1' }]);
    const [ring, board] = uow.events;
    expect(ring).toMatchObject({ type: 'lines-ringing-once', kinds: ['import'] });
    expect(ring.type === 'lines-ringing-once' && ring.lines.map((l) => [l.kind, l.actorId, l.data.sourceId])).toEqual([
      ['import', 'ann', 'c1'],
      ['import', 'ann', 'c2'],
    ]);
    expect(board).toEqual({ type: 'notice', change: { projectId: 'p1', scope: 'board', clientId: 'tab-1' } });
  });

  it('skips cards imported before, and an import of nothing is a silent write', async () => {
    const { service, store, uow } = setUp();
    store.heads.get('p1')!.imported = new Map([['c1', 1], ['c2', 2]]);
    const answer = await service.import(caller, BOARD);
    expect(answer.imported).toBe(0);
    expect(answer.skipped).toHaveLength(2);
    expect(store.written).toEqual([]);
    expect(uow.writes.map((w) => [w.landed, w.events])).toEqual([[true, []]]);
  });

  it('refuses a project that would overflow, in the preview as in the import, writing nothing', async () => {
    const { service, store, uow } = setUp(MAX_PROJECT_TASKS - 1);
    expect(await refusalCode(service.preview(caller, BOARD))).toBe('task.project_full');
    expect(await refusalCode(service.import(caller, BOARD))).toBe('task.project_full');
    expect(store.written).toEqual([]);
    expect(uow.events).toEqual([]);
  });

  it('previews without writing, and refuses a project that is gone', async () => {
    const { service, store, uow } = setUp();
    expect((await service.preview(caller, BOARD)).tasks).toBe(2);
    expect(store.written).toEqual([]);
    expect(uow.writes).toEqual([]);
    expect(await refusalCode(service.preview({ ...caller, projectId: 'gone' }, BOARD))).toBe('project.not_found');
  });
});
