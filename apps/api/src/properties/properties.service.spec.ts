import { notice } from '@board/kernel';
import type { PropertyDefsQuery } from '@board/persistence';
import { InMemoryPropertyRepository } from '../../../../test/support/in-memory/property-repository';
import { RecordingUnitOfWork } from '../../../../test/support/recording-unit-of-work';
import { refusalCode } from '../../../../test/support/refusal-code';
import type { ProjectCaller } from '../auth/auth-context';
import { parseRequest } from '../http/dto/request-dto.pipe';
import { CreatePropertyBody, UpdatePropertyBody } from './properties.dto';
import { PropertiesService } from './properties.service';

/** Bodies as their request DTOs read them (what the controllers hand the service). */
const created = (body: object) => parseRequest(CreatePropertyBody, body);
const changed = (body: object) => parseRequest(UpdatePropertyBody, body);

// The read model is a small typed fake below: the adapters' library is not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));

const PROJECT = '00000000-0000-4000-8000-000000000001';
const UNKNOWN = '00000000-0000-4000-8000-0000000000ff';
const OWNER: ProjectCaller = { userId: 'olga', kind: 'human', name: 'Olga', role: 'owner', projectId: PROJECT, clientId: 'tab-1' };
const MEMBER: ProjectCaller = { ...OWNER, userId: 'ann', name: 'Ann', role: 'member' };
const AGENT: ProjectCaller = { ...OWNER, userId: 'bot', name: 'Bot', kind: 'agent', role: 'admin' };
const ring = notice({ projectId: PROJECT, scope: 'board', clientId: 'tab-1' });

function setUp() {
  const store = new InMemoryPropertyRepository();
  const uow = new RecordingUnitOfWork();
  // What the value rules read: the project's properties as definitions, from the same store.
  const defs: Pick<PropertyDefsQuery, 'load'> = { load: async (projectId) => store.defs(projectId) };
  return { store, uow, service: new PropertiesService(store, defs as PropertyDefsQuery, uow) };
}

describe('PropertiesService', () => {
  it('creates a property last with its first options and its card row, ringing the board under the project lock', async () => {
    const { store, uow, service } = setUp();
    const first = await service.create(OWNER, created({ name: 'Priority', type: 'select', options: ['High', 'Low'] }));
    const second = await service.create(OWNER, created({ name: 'Due', type: 'date' }));
    expect(first).toMatchObject({ name: 'Priority', type: 'select', options: [{ name: 'High' }, { name: 'Low' }] });
    expect(first.position < second.position).toBe(true);
    expect(store.cardRows.get(first.id)).toEqual({ place: 'footer', mode: 'colour' });
    expect(uow.events).toEqual([ring, ring]);
    expect(uow.writes.map((w) => w.options)).toEqual([{ lockProject: PROJECT }, { lockProject: PROJECT }]);
  });

  it('rings only when an update changes something', async () => {
    const { uow, service } = setUp();
    const { id } = await service.create(OWNER, created({ name: 'Priority', type: 'select', options: ['High'] }));
    uow.clear();
    await service.update(OWNER, id, changed({ name: 'Priority', showOnCard: true }));
    expect(uow.events).toEqual([]);
    await service.update(OWNER, id, changed({ name: 'Urgency' }));
    await service.update(OWNER, id, changed({ showOnCard: false }));
    expect(uow.events).toEqual([ring, ring]);
  });

  it('keeps dated and defaults to owners and admins who are people', async () => {
    const { store, service } = setUp();
    const { id } = await service.create(OWNER, created({ name: 'Release', type: 'select', options: ['1.0'] }));
    const text = await service.create(OWNER, created({ name: 'Note', type: 'text' }));
    expect(await refusalCode(service.update(MEMBER, id, changed({ dated: true })))).toBe('gate.admin');
    expect(await refusalCode(service.update(AGENT, id, changed({ dated: true })))).toBe('gate.human');
    expect(await refusalCode(service.update(MEMBER, id, changed({ defaults: {} })))).toBe('gate.admin');
    expect(await refusalCode(service.update(OWNER, text.id, changed({ dated: true })))).toBe('property.not_dated_type');
    await service.update(OWNER, id, changed({ dated: true }));
    expect(store.properties.get(id)?.config).toEqual({ dated: true });
  });

  it('refuses a `when` rule that names no select, and a property that is not there', async () => {
    const { service } = setUp();
    const note = await service.create(OWNER, created({ name: 'Note', type: 'text' }));
    expect(await refusalCode(service.update(OWNER, note.id, changed({ when: { propertyId: note.id, optionIds: [UNKNOWN] } })))).toBe('property.when_invalid');
    expect(await refusalCode(service.update(OWNER, UNKNOWN, changed({ name: 'Gone' })))).toBe('property.not_found');
  });

  it('refuses to delete what a board groups by, naming the boards, and deletes with a ring otherwise', async () => {
    const { store, uow, service } = setUp();
    const { id } = await service.create(OWNER, created({ name: 'Status', type: 'select', options: ['To do'] }));
    uow.clear();
    store.grouping.set(id, [{ id: 'v1', name: 'Board', kind: 'board' }]);
    expect(await refusalCode(service.remove(OWNER, id))).toBe('property.grouped_by_view');
    store.grouping.set(id, [{ id: 'v1', name: 'Board', kind: 'board' }, { id: 'v2', name: 'Team', kind: 'board' }]);
    expect(await refusalCode(service.remove(OWNER, id))).toBe('property.grouped_by_views');
    store.grouping.set(id, [{ id: 'v3', name: 'List', kind: 'list' }]);
    await service.remove(OWNER, id);
    expect(store.properties.has(id)).toBe(false);
    expect(uow.events).toEqual([ring]);
    expect(await refusalCode(service.remove(OWNER, id))).toBe('property.not_found');
  });
});
