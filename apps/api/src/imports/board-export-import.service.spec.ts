import { BoardExport, readBoardExport } from '@board/imports';
import { MAX_PROJECT_TASKS } from '@board/tasks';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { InMemoryBoardExportRepository } from '../../../../test/support/in-memory/import-repository';
import { RecordingUnitOfWork } from '../../../../test/support/recording-unit-of-work';
import { refusalCode } from '../../../../test/support/refusal-code';
import type { ProjectCaller } from '../auth/auth-context';
import { BoardExportImportService } from './board-export-import.service';

const caller: ProjectCaller = { userId: 'me', kind: 'human', name: 'Me', role: 'owner', projectId: 'p1', clientId: 'tab-1' };

/** A small export: a select, three tasks (one archived, one deleted), a comment, a run, a feed line. */
const exported = (tasks = 3): BoardExport =>
  readBoardExport({
    format: 'task-board-export',
    version: 1,
    project: { doneWhen: null, members: [{ id: 'old-ann', email: 'ann@example.com' }] },
    properties: [{ id: 'p-status', name: 'Status', type: 'select', position: 'a0', options: [{ id: 'o-todo', name: 'To do', color: 'gray', position: 'a0' }] }],
    views: [{ id: 'v1', name: 'Board', kind: 'board', groupById: 'p-status', position: 'a0' }],
    cardView: {},
    rules: { text: '', updatedAt: null },
    tasks: Array.from({ length: tasks }, (_, i) => ({
      id: `t${i + 1}`, number: i + 1, title: `Task ${i + 1}`, position: `a${i}`, values: i === 0 ? { 'p-status': 'o-todo' } : {},
      archivedAt: i === 1 ? '2026-01-02T00:00:00.000Z' : null, deletedAt: i === 2 ? '2026-01-03T00:00:00.000Z' : null,
      comments: i === 0 ? [{ body: 'hi', author: { id: 'old-ann', name: 'Ann' } }] : [],
    })),
    runs: [{ id: 'r1', taskId: 't1', agent: { id: 'old-ann' }, status: 'done', endedAt: '2026-01-02T00:00:00.000Z', days: [] }],
    activity: [{ id: 'a1', taskId: 't1', actorId: 'old-ann', kind: 'created', data: {} }],
  });

function setUp(hasTasks = false) {
  const store = new InMemoryBoardExportRepository();
  store.heads.set('p1', { members: [{ id: 'ann', email: 'Ann@Example.com' }], hasTasks });
  const uow = new RecordingUnitOfWork();
  return { store, uow, service: new BoardExportImportService(store, uow, new SteppedClock()) };
}

describe('BoardExportImportService', () => {
  it('previews what the import would bring, writing and telling nothing', async () => {
    const { store, uow, service } = setUp();
    expect(await service.preview(caller, exported())).toEqual({
      kind: 'export', tasks: 1, archived: 1, deleted: 1, lists: 0, closedLists: 0, labels: 0, checklistItems: 0, comments: 1, skipped: [],
      properties: 1, views: 1, runs: 1,
    });
    expect(store.written).toEqual([]);
    expect(uow.writes).toEqual([]);
  });

  it('imports in one write under the project lock: an import line per task (its select values, its id in the export) ringing each webhook once, one board ring', async () => {
    const { store, uow, service } = setUp();
    expect(await service.import(caller, exported())).toEqual({ imported: 3, skipped: [] });
    expect(store.written).toHaveLength(1);
    const { plan } = store.written[0];
    expect(uow.writes).toEqual([expect.objectContaining({ options: { lockProject: 'p1' }, landed: true })]);
    const [ring, board] = uow.events;
    expect(ring).toMatchObject({ type: 'lines-ringing-once', kinds: ['import'] });
    const status = plan.properties[0].id;
    expect(ring.type === 'lines-ringing-once' && ring.lines.map((l) => [l.taskId, l.actorId, l.kind, l.data])).toEqual([
      [plan.tasks[0].id, 'me', 'import', { selects: { [status]: plan.options[0].id }, sourceId: 't1' }],
      [plan.tasks[1].id, 'me', 'import', { selects: {}, sourceId: 't2' }],
      [plan.tasks[2].id, 'me', 'import', { selects: {}, sourceId: 't3' }],
    ]);
    expect(board).toEqual({ type: 'notice', change: { projectId: 'p1', scope: 'board', clientId: 'tab-1' } });
    // People are matched by email: the comment keeps its author.
    expect(plan.comments.map((c) => c.authorId)).toEqual(['ann']);
  });

  it('refuses a project that is gone, one that holds tasks, and more tasks than a project takes; nothing is written or told', async () => {
    const { store, uow, service } = setUp(true);
    expect(await refusalCode(service.import(caller, exported()))).toBe('import.not_empty');
    expect(await refusalCode(service.preview(caller, exported()))).toBe('import.not_empty');
    expect(await refusalCode(service.import({ ...caller, projectId: 'gone' }, exported()))).toBe('project.not_found');
    store.heads.set('p1', { members: [], hasTasks: false });
    expect(await refusalCode(service.import(caller, exported(MAX_PROJECT_TASKS + 3)))).toBe('task.project_full');
    expect(store.written).toEqual([]);
    expect(uow.writes.map((w) => w.landed)).toEqual([false, false, false]);
    expect(uow.events).toEqual([]);
  });
});
