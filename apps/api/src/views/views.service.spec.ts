import { notice } from '@board/kernel';
import type { ProjectFactsQuery, PropertyDefsQuery, TaskQuery, ViewTaskPageQuery } from '@board/persistence';
import type { PropertyDef } from '@board/properties';
import { InMemoryViewRepository } from '../../../../test/support/in-memory/view-repository';
import { RecordingUnitOfWork } from '../../../../test/support/recording-unit-of-work';
import { refusalCode } from '../../../../test/support/refusal-code';
import type { ProjectCaller } from '../auth/auth-context';
import { parseRequest } from '../http/dto/request-dto.pipe';
import { CreateViewBody, PatchCardViewBody, PatchViewCardViewBody, PutLensBody, UpdateViewBody, ViewTasksQuery } from './views.dto';
import { ViewsService } from './views.service';

// The read models are small typed fakes below: the adapters' library is not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));

const PROJECT = '00000000-0000-4000-8000-000000000001';
const MAIN = '00000000-0000-4000-8000-0000000000b1';
const STATUS = '00000000-0000-4000-8000-0000000000e1';
const NOTE = '00000000-0000-4000-8000-0000000000e2';
const OTHER_PROJECT_PROPERTY = '00000000-0000-4000-8000-0000000000e9';
const TASK = '00000000-0000-4000-8000-0000000000c1';
const ANN: ProjectCaller = { userId: 'ann', kind: 'human', name: 'Ann', role: 'member', projectId: PROJECT, clientId: 'tab-1' };
const BOT: ProjectCaller = { ...ANN, userId: 'bot', kind: 'agent', name: 'Bot' };
const ring = notice({ projectId: PROJECT, scope: 'board', clientId: 'tab-1' });

const DEFS: PropertyDef[] = [
  { id: STATUS, name: 'Status', type: 'select', position: 'a0', config: {}, optionIds: new Set() },
  { id: NOTE, name: 'Note', type: 'text', position: 'a1', config: {}, optionIds: new Set() },
];
const noteEmpty = { rules: [{ propertyId: NOTE, op: 'empty' }] };

/** Commands as the request DTOs read them (what the controllers hand the service). */
const created = (body: object) => parseRequest(CreateViewBody, body);
const changed = (body: object) => parseRequest(UpdateViewBody, body);
const lens = (body: object) => parseRequest(PutLensBody, body);
const projectRows = (rows: unknown) => parseRequest(PatchCardViewBody, { rows });
const viewRows = (rows: unknown) => parseRequest(PatchViewCardViewBody, { rows });
const page = (query: object) => parseRequest(ViewTasksQuery, query);

function setUp() {
  const views = new InMemoryViewRepository();
  views.addDefault({ id: MAIN, projectId: PROJECT, name: 'Board', kind: 'board', groupById: STATUS });
  const uow = new RecordingUnitOfWork();
  const defs: Pick<PropertyDefsQuery, 'load'> = { load: async () => DEFS };
  const pageAsks: unknown[] = [];
  const pages = { page: async (input: unknown) => (pageAsks.push(input), { ids: [TASK], total: 1 }) };
  const facts = { load: async () => ({ key: 'WEB', doneWhen: null }) };
  const tasks = { boardTasks: async (_p: string, _k: string, _d: unknown, ids: string[]) => ids.map((id) => ({ id })) };
  const service = new ViewsService(
    views, defs as PropertyDefsQuery, tasks as unknown as TaskQuery, facts as unknown as ProjectFactsQuery, uow, pages as unknown as ViewTaskPageQuery,
  );
  return { views, uow, service, pageAsks };
}

describe('ViewsService', () => {
  it('creates a board grouped by a select, ringing the board under the project lock', async () => {
    const { views, uow, service } = setUp();
    const view = await service.create(ANN, created({ name: 'Mine', groupById: STATUS }));
    expect(view).toMatchObject({ name: 'Mine', kind: 'board', groupById: STATUS, isDefault: false });
    expect(views.views.size).toBe(2);
    expect(uow.events).toEqual([ring]);
    expect(uow.writes.map((w) => w.options)).toEqual([{ lockProject: PROJECT }]);
  });

  it('refuses a board without a grouping, grouping by text, or by another project’s property', async () => {
    const { views, uow, service } = setUp();
    expect(await refusalCode(service.create(ANN, created({ name: 'No group' })))).toBe('view.group_missing');
    expect(await refusalCode(service.create(ANN, created({ name: 'Text', groupById: NOTE })))).toBe('view.group_type');
    expect(await refusalCode(service.create(ANN, created({ name: 'Other', groupById: OTHER_PROJECT_PROPERTY })))).toBe('property.not_in_project');
    expect(views.views.size).toBe(1);
    expect(uow.events).toEqual([]);
  });

  it('rings on a change, stays silent on none, and keeps the shared rules a person’s to write', async () => {
    const { uow, service } = setUp();
    await service.update(ANN, MAIN, changed({ name: 'Board' }));
    expect(uow.events).toEqual([]);
    expect(await service.update(ANN, MAIN, changed({ filters: noteEmpty }))).toMatchObject({ filters: noteEmpty });
    expect(uow.events).toEqual([ring]);
    expect(await refusalCode(service.update(BOT, MAIN, changed({ filters: { rules: [] } })))).toBe('gate.human');
    expect(await refusalCode(service.update(ANN, MAIN, changed({ groupById: null })))).toBe('view.board_needs_group');
    expect(await refusalCode(service.update(ANN, TASK, changed({ name: 'Gone' })))).toBe('view.not_found');
    expect(uow.events).toEqual([ring]);
  });

  it('moves a view after another (null: first)', async () => {
    const { views, service } = setUp();
    const second = await service.create(ANN, created({ name: 'Second', kind: 'list' }));
    await service.update(ANN, second.id, changed({ afterId: null }));
    expect((await views.list(PROJECT, 'ann')).map((v) => v.id)).toEqual([second.id, MAIN]);
    expect(await refusalCode(service.update(ANN, second.id, changed({ afterId: 'nope' })))).toBe('id.invalid');
    // Read with the body, refused in its turn: after the grouping and the filters' gate.
    expect(await refusalCode(service.update(ANN, second.id, changed({ groupById: OTHER_PROJECT_PROPERTY, afterId: 'nope' })))).toBe('property.not_in_project');
    expect(await refusalCode(service.update(BOT, second.id, changed({ filters: noteEmpty, afterId: 'nope' })))).toBe('gate.human');
  });

  it('deletes a view with a ring, never the main one', async () => {
    const { views, uow, service } = setUp();
    const list = await service.create(ANN, created({ name: 'List', kind: 'list' }));
    uow.clear();
    expect(await refusalCode(service.remove(ANN, MAIN))).toBe('view.main');
    await service.remove(ANN, list.id);
    expect(views.views.has(list.id)).toBe(false);
    expect(uow.events).toEqual([ring]);
  });

  it('keeps a lens the caller’s own (silent), refuses one that asks what the view filters, and promotes it with a ring', async () => {
    const { views, uow, service } = setUp();
    const lensed = await service.putLens(ANN, MAIN, lens({ filters: noteEmpty }));
    expect(lensed.lens).toEqual(noteEmpty);
    expect(uow.events).toEqual([]);
    const promoted = await service.promote(ANN, MAIN);
    expect(promoted).toMatchObject({ filters: noteEmpty, lens: { rules: [] } });
    expect(views.lenses.size).toBe(0);
    expect(uow.events).toEqual([ring]);
    expect(await refusalCode(service.putLens(ANN, MAIN, lens({ filters: noteEmpty })))).toBe('view.lens_clash');
    // Nothing to promote: silent.
    await service.promote(ANN, MAIN);
    expect(uow.events).toEqual([ring]);
  });

  it('merges card rows, ringing only when they change, and refuses an unknown key', async () => {
    const { uow, service } = setUp();
    const rows = { [NOTE]: { place: 'footer', mode: 'text' } };
    expect((await service.patchProjectCardView(ANN, projectRows(rows))).cardView.rows).toEqual(rows);
    await service.patchProjectCardView(ANN, projectRows(rows));
    expect(uow.events).toEqual([ring]);
    await service.patchViewCardView(ANN, MAIN, viewRows({ [STATUS]: { place: 'headerL', mode: 'colour' } }));
    await service.patchViewCardView(ANN, MAIN, viewRows(null));
    expect(uow.events).toEqual([ring, ring, ring]);
    expect(await refusalCode(service.patchProjectCardView(ANN, projectRows({ [TASK]: { place: 'footer', mode: 'text' } })))).toBe('card.key_invalid');
  });

  it('reads a page of a view’s tasks through the page query, and no view of another project', async () => {
    const { service, pageAsks } = setUp();
    expect(await service.tasksOf(ANN, MAIN, page({ limit: '1' }))).toEqual({ tasks: [{ id: TASK }], total: 1, next: null });
    expect(pageAsks).toEqual([expect.objectContaining({ projectId: PROJECT, me: 'ann', limit: 1, after: null })]);
    expect(await refusalCode(service.tasksOf(ANN, TASK, page({})))).toBe('view.not_found');
  });
});
