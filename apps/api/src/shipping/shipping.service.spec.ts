import { notice, WriteEvent } from '@board/kernel';
import type { PropertyDefsQuery } from '@board/persistence';
import { Project, ProjectProps, ProjectRepository } from '@board/projects';
import { Task, TaskRepository } from '@board/tasks';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { InMemoryPropertyRepository } from '../../../../test/support/in-memory/property-repository';
import { InMemoryShipRepository } from '../../../../test/support/in-memory/ship-repository';
import { RecordingUnitOfWork } from '../../../../test/support/recording-unit-of-work';
import { refusalCode } from '../../../../test/support/refusal-code';
import type { ProjectCaller } from '../auth/auth-context';
import { ShippingService } from './shipping.service';

// The read model is a small typed fake below: the adapters' library is not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));

const PROJECT = '00000000-0000-4000-8000-000000000001';
const RELEASE = '00000000-0000-4000-8000-0000000000e1';
const STATUS = '00000000-0000-4000-8000-0000000000e2';
const V1 = '00000000-0000-4000-8000-0000000000f1';
const V2 = '00000000-0000-4000-8000-0000000000f2';
const DONE = '00000000-0000-4000-8000-0000000000f3';
const UNKNOWN = '00000000-0000-4000-8000-0000000000ff';
const OWNER: ProjectCaller = { userId: 'olga', kind: 'human', name: 'Olga', role: 'owner', projectId: PROJECT, clientId: 'tab-1' };

function setUp(project: Partial<ProjectProps> = {}) {
  const store = new InMemoryPropertyRepository();
  const at = new Date();
  store.properties.set(RELEASE, { id: RELEASE, projectId: PROJECT, name: 'Release', type: 'select', position: 'a0', config: { dated: true }, createdAt: at });
  store.properties.set(STATUS, { id: STATUS, projectId: PROJECT, name: 'Status', type: 'select', position: 'a1', config: {}, createdAt: at });
  const option = (id: string, propertyId: string, name: string, position: string, targetOn: string | null) =>
    store.options_.set(id, { id, projectId: PROJECT, propertyId, name, color: '#aaaaaa', position, startsOn: null, targetOn, note: null, shippedAt: null });
  option(V1, RELEASE, '1.0', 'a0', '2026-03-01');
  option(V2, RELEASE, '1.1', 'a1', '2026-04-01');
  option(DONE, STATUS, 'Done', 'a0', null);
  const ships = new InMemoryShipRepository(store);
  const task = (id: string, position: string, values: Record<string, string>) =>
    Task.restore({ id, projectId: PROJECT, number: 1, title: id, description: '', position, values, parentId: null, archivedAt: null, deletedAt: null });
  ships.tasks.push(task('t-done', 'a0', { [RELEASE]: V1, [STATUS]: DONE }), task('t-open', 'a1', { [RELEASE]: V1 }));
  const projects: Pick<ProjectRepository, 'findById'> = {
    findById: async (id) =>
      id !== PROJECT ? null : Project.restore({
        id, name: 'Web', key: 'WEB', ownerId: 'olga', doneWhen: { propertyId: STATUS, optionIds: [DONE] }, releases: true, sprints: false,
        rulesText: '', rulesUpdatedAt: null, createdAt: at, dailyBudgetMicros: null, ...project,
      }),
  };
  const defs: Pick<PropertyDefsQuery, 'load'> = { load: async (projectId) => store.defs(projectId) };
  const saved: string[][] = [];
  const tasks: Pick<TaskRepository, 'saveMany'> = { saveMany: async (_projectId, list) => void saved.push(list.map((t) => t.id)) };
  const uow = new RecordingUnitOfWork();
  const service = new ShippingService(store, ships, projects as ProjectRepository, defs as PropertyDefsQuery, tasks as TaskRepository, uow, new SteppedClock());
  return { store, ships, saved, uow, service };
}

describe('ShippingService', () => {
  it('archives what is over, moves the rest to the next option, and rings each webhook once and the board once', async () => {
    const { ships, saved, uow, service } = setUp();
    expect(await service.ship(OWNER, V1, { rest: 'next', strays: false })).toEqual({ archived: 1, moved: 1, rest: 'next', shippedAt: '2026-03-02', taken: 0 });
    const shipped = ships.shipped.get(V1);
    expect(shipped).toEqual({ shipId: expect.any(String), day: '2026-03-02', taskIds: ['t-done'] });
    expect(saved).toEqual([['t-done', 't-open']]);
    const [lines, ring] = uow.events as [Extract<WriteEvent, { type: 'lines-ringing-once' }>, WriteEvent];
    expect(lines.type).toBe('lines-ringing-once');
    expect(lines.kinds).toEqual(['archive', 'value']);
    expect(lines.lines.map((l) => [l.taskId, l.kind, l.data.shipId])).toEqual([['t-done', 'archive', shipped?.shipId], ['t-open', 'value', shipped?.shipId]]);
    expect(ring).toEqual(notice({ projectId: PROJECT, scope: 'board', clientId: 'tab-1' }));
    expect(uow.events).toHaveLength(2);
    expect(uow.writes.map((w) => w.options)).toEqual([{ lockProject: PROJECT }]);
  });

  it('refuses an option that is gone, one shipped already, a last option whose rest goes next, and releases turned off', async () => {
    expect(await refusalCode(setUp().service.ship(OWNER, UNKNOWN, { rest: 'leave', strays: false }))).toBe('option.not_found');
    const { service, uow } = setUp();
    await service.ship(OWNER, V1, { rest: 'leave', strays: false });
    expect(await refusalCode(service.ship(OWNER, V1, { rest: 'leave', strays: false }))).toBe('ship.already_shipped');
    expect(await refusalCode(service.ship(OWNER, V2, { rest: 'next', strays: false }))).toBe('ship.last_option');
    // Refused inside the write: nothing of theirs landed.
    expect(uow.writes.map((w) => w.landed)).toEqual([true, false, false]);
    expect(await refusalCode(setUp({ releases: false }).service.ship(OWNER, V1, { rest: 'leave', strays: false }))).toBe('ship.releases_off');
    expect(await refusalCode(setUp().service.ship(OWNER, DONE, { rest: 'leave', strays: false }))).toBe('ship.no_target');
  });
});
