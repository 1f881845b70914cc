import { notice, rankBetween } from '@board/kernel';
import { InMemoryPropertyRepository } from '../../../../test/support/in-memory/property-repository';
import { InMemoryShipRepository } from '../../../../test/support/in-memory/ship-repository';
import { RecordingUnitOfWork } from '../../../../test/support/recording-unit-of-work';
import { refusalCode } from '../../../../test/support/refusal-code';
import type { ProjectCaller } from '../auth/auth-context';
import { parseRequest } from '../http/dto/request-dto.pipe';
import { OptionsService } from './options.service';
import { OptionBody } from './properties.dto';

/** An option body as its request DTO reads it (what the controllers hand the service). */
const option = (body: object) => parseRequest(OptionBody, body);

const PROJECT = '00000000-0000-4000-8000-000000000001';
const STATUS = '00000000-0000-4000-8000-0000000000e1';
const RELEASE = '00000000-0000-4000-8000-0000000000e2';
const NOTE = '00000000-0000-4000-8000-0000000000e3';
const UNKNOWN = '00000000-0000-4000-8000-0000000000ff';
const OWNER: ProjectCaller = { userId: 'olga', kind: 'human', name: 'Olga', role: 'owner', projectId: PROJECT, clientId: 'tab-1' };
const MEMBER: ProjectCaller = { ...OWNER, userId: 'ann', name: 'Ann', role: 'member' };
const ring = notice({ projectId: PROJECT, scope: 'board', clientId: 'tab-1' });

function setUp() {
  const store = new InMemoryPropertyRepository();
  const at = new Date();
  store.properties.set(STATUS, { id: STATUS, projectId: PROJECT, name: 'Status', type: 'select', position: rankBetween(null, null), config: {}, createdAt: at });
  store.properties.set(RELEASE, { id: RELEASE, projectId: PROJECT, name: 'Release', type: 'select', position: 'a1', config: { dated: true }, createdAt: at });
  store.properties.set(NOTE, { id: NOTE, projectId: PROJECT, name: 'Note', type: 'text', position: 'a2', config: {}, createdAt: at });
  const ships = new InMemoryShipRepository(store);
  const uow = new RecordingUnitOfWork();
  return { store, ships, uow, service: new OptionsService(store, ships, uow) };
}

describe('OptionsService', () => {
  it('adds options last with a free colour, ringing the board under the project lock', async () => {
    const { store, uow, service } = setUp();
    const a = await service.create(OWNER, STATUS, option({ name: 'To do' }));
    const b = await service.create(OWNER, STATUS, option({ name: 'Done', color: '#4B8FBE' }));
    expect(b.color).toBe('#4b8fbe');
    // An add ignores a colour that is not one (a change refuses it).
    expect((await service.create(OWNER, STATUS, option({ name: 'Odd', color: 'red' }))).color).toMatch(/^#[0-9a-f]{6}$/);
    expect(a.position < b.position).toBe(true);
    expect((await store.options(PROJECT, STATUS)).map((o) => o.name)).toEqual(['To do', 'Done', 'Odd']);
    expect(uow.events).toEqual([ring, ring, ring]);
    expect(uow.writes.map((w) => w.options)).toEqual([{ lockProject: PROJECT }, { lockProject: PROJECT }, { lockProject: PROJECT }]);
  });

  it('refuses a name the property has (case and spaces ignored), an option on a text property, and an unknown property', async () => {
    const { uow, service } = setUp();
    await service.create(OWNER, STATUS, option({ name: 'To do' }));
    uow.clear();
    expect(await refusalCode(service.create(OWNER, STATUS, option({ name: ' TO DO ' })))).toBe('option.duplicate');
    expect(await refusalCode(service.create(OWNER, NOTE, option({ name: 'x' })))).toBe('option.not_select');
    expect(await refusalCode(service.create(OWNER, UNKNOWN, option({ name: 'x' })))).toBe('property.not_found');
    expect(uow.events).toEqual([]);
  });

  it('changes an option with a ring, answers an unchanged one silently, and refuses a bad colour or another’s name', async () => {
    const { uow, service } = setUp();
    const todo = await service.create(OWNER, STATUS, option({ name: 'To do' }));
    await service.create(OWNER, STATUS, option({ name: 'Done' }));
    uow.clear();
    expect((await service.update(OWNER, todo.id, option({ name: 'TO DO' }))).name).toBe('TO DO');
    await service.update(OWNER, todo.id, option({ name: 'TO DO' }));
    expect(uow.events).toEqual([ring]);
    expect(await refusalCode(service.update(OWNER, todo.id, option({ color: 'red' })))).toBe('option.color_invalid');
    expect(await refusalCode(service.update(OWNER, todo.id, option({ name: 'done' })))).toBe('option.duplicate');
    expect(await refusalCode(service.update(OWNER, UNKNOWN, option({ name: 'x' })))).toBe('option.not_found');
  });

  it('takes a shipped day back only for owners and admins, and forgets what shipped', async () => {
    const { store, ships, service } = setUp();
    const release = await service.create(OWNER, RELEASE, option({ name: '1.0', targetOn: '2026-04-01' }));
    expect(release).toMatchObject({ targetOn: '2026-04-01' });
    const saved = store.options_.get(release.id);
    if (saved) saved.shippedAt = '2026-03-30';
    expect(await refusalCode(service.update(MEMBER, release.id, option({ shippedAt: null })))).toBe('gate.admin');
    expect(ships.forgotten).toEqual([]);
    await service.update(OWNER, release.id, option({ shippedAt: null }));
    expect(store.options_.get(release.id)?.shippedAt).toBeNull();
    expect(ships.forgotten).toEqual([release.id]);
  });

  it('deletes an option with a ring and counts the tasks holding one', async () => {
    const { store, uow, service } = setUp();
    const todo = await service.create(OWNER, STATUS, option({ name: 'To do' }));
    store.optionTasks.set(todo.id, ['t1', 't2']);
    expect(await service.countTasks(PROJECT, todo.id)).toBe(2);
    uow.clear();
    await service.remove(OWNER, todo.id);
    expect(uow.events).toEqual([ring]);
    expect(await refusalCode(service.remove(OWNER, todo.id))).toBe('option.not_found');
    expect(await refusalCode(service.countTasks(PROJECT, todo.id))).toBe('option.not_found');
  });
});
