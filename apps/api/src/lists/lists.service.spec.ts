// The read model is an in-memory fake: the adapters' library is not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));
import { ranksAfter } from '@board/kernel';
import { MAX_LIST_TASKS, MAX_LISTS } from '@board/lists';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { InMemoryListQuery } from '../../../../test/support/in-memory/list-query';
import { InMemoryListRepository } from '../../../../test/support/in-memory/list-repository';
import { RecordingUnitOfWork } from '../../../../test/support/recording-unit-of-work';
import { refusalCode } from '../../../../test/support/refusal-code';
import { ListsService } from './lists.service';

const ANN = '00000000-0000-4000-8000-00000000a001';
const BEN = '00000000-0000-4000-8000-00000000b001';
const PROJECT = '00000000-0000-4000-8000-000000000001';
const TASK = '00000000-0000-4000-8000-00000000c001';
const OTHER_TASK = '00000000-0000-4000-8000-00000000c002';
const UNKNOWN = '00000000-0000-4000-8000-00000000dead';

function setUp() {
  const store = new InMemoryListRepository();
  const uow = new RecordingUnitOfWork();
  const service = new ListsService(uow, store, new InMemoryListQuery(store), new SteppedClock());
  return { store, uow, service };
}

describe('ListsService', () => {
  it('creates a list under the person’s lock, last by default, first after an unknown id, and writes no event', async () => {
    const { store, uow, service } = setUp();
    const first = await service.create(ANN, { name: 'Today' });
    const second = await service.create(ANN, { name: 'Later' });
    const front = await service.create(ANN, { name: 'Now', afterId: UNKNOWN });
    expect([first.name, second.name, front.name]).toEqual(['Today', 'Later', 'Now']);
    expect((await store.lists(ANN)).map((l) => store.lists_.get(l.id)?.name)).toEqual(['Now', 'Today', 'Later']);
    expect(store.locked).toEqual([ANN, ANN, ANN]);
    expect(uow.events).toEqual([]);
    expect(uow.writes).toHaveLength(3);
  });

  it('refuses a list past the limit', async () => {
    const { store, service } = setUp();
    const ranks = ranksAfter(null, MAX_LISTS);
    for (let i = 0; i < MAX_LISTS; i++) await store.insert({ id: `l${i}`, userId: ANN, name: `L${i}`, position: ranks[i], now: new Date() });
    expect(await refusalCode(service.create(ANN, { name: 'One more' }))).toBe('list.too_many');
  });

  it('renames and moves a list, and finds no list of somebody else (or a malformed id)', async () => {
    const { store, service } = setUp();
    const a = await service.create(ANN, { name: 'A' });
    const b = await service.create(ANN, { name: 'B' });
    expect((await service.update(ANN, b.id, { name: 'Bee', afterId: null })).name).toBe('Bee');
    expect((await store.lists(ANN)).map((l) => l.id)).toEqual([b.id, a.id]);
    expect(await refusalCode(service.update(BEN, a.id, { name: 'Mine' }))).toBe('list.not_found');
    expect(await refusalCode(service.update(ANN, 'nope', {}))).toBe('id.invalid');
    expect(store.lists_.get(a.id)?.name).toBe('A');
  });

  it('puts a task first by default, moves it without counting it twice, and refuses an unseen task', async () => {
    const { store, service } = setUp();
    const list = await service.create(ANN, { name: 'Focus' });
    store.tasks.set(`${ANN}:${TASK}`, PROJECT);
    store.tasks.set(`${ANN}:${OTHER_TASK}`, PROJECT);
    await service.putTask(ANN, list.id, TASK, {});
    await service.putTask(ANN, list.id, OTHER_TASK, {});
    expect((await store.items(list.id)).map((i) => i.id)).toEqual([OTHER_TASK, TASK]);
    await service.putTask(ANN, list.id, OTHER_TASK, { afterId: TASK });
    expect((await store.items(list.id)).map((i) => i.id)).toEqual([TASK, OTHER_TASK]);
    expect(store.items_.every((i) => i.projectId === PROJECT)).toBe(true);
    expect(await refusalCode(service.putTask(ANN, list.id, UNKNOWN, {}))).toBe('task.not_found');
    expect(await refusalCode(service.putTask(BEN, list.id, TASK, {}))).toBe('list.not_found');
  });

  it('refuses a new task in a full list but still moves one that is in it', async () => {
    const { store, service } = setUp();
    const list = await service.create(ANN, { name: 'Full' });
    const ranks = ranksAfter(null, MAX_LIST_TASKS - 1);
    for (let i = 0; i < MAX_LIST_TASKS - 1; i++) await store.putItem({ listId: list.id, projectId: PROJECT, taskId: `t${i}`, position: ranks[i] });
    store.tasks.set(`${ANN}:${TASK}`, PROJECT);
    store.tasks.set(`${ANN}:${OTHER_TASK}`, PROJECT);
    await service.putTask(ANN, list.id, TASK, {});
    expect(await refusalCode(service.putTask(ANN, list.id, OTHER_TASK, {}))).toBe('list.full');
    await service.putTask(ANN, list.id, TASK, { afterId: 't3' });
    expect((await store.items(list.id)).length).toBe(MAX_LIST_TASKS);
  });

  it('takes a task out idempotently and deletes only the person’s own list', async () => {
    const { store, uow, service } = setUp();
    const list = await service.create(ANN, { name: 'Out' });
    store.tasks.set(`${ANN}:${TASK}`, PROJECT);
    await service.putTask(ANN, list.id, TASK, {});
    await service.removeTask(ANN, list.id, TASK);
    await service.removeTask(ANN, list.id, TASK);
    expect(await store.items(list.id)).toEqual([]);
    expect(await refusalCode(service.remove(BEN, list.id))).toBe('list.not_found');
    await service.remove(ANN, list.id);
    expect(await refusalCode(service.remove(ANN, list.id))).toBe('list.not_found');
    expect(uow.events).toEqual([]);
  });
});
