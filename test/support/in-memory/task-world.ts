import { Clock } from '@board/kernel';
import { ProjectFactsQuery, PropertyDefsQuery, RunQuery, TaskQuery, ValueNamesQuery } from '@board/persistence';
import { PropertyDef } from '@board/properties';
import { ProjectCaller } from '../../../apps/api/src/auth/auth-context';
import { RecordingUnitOfWork } from '../recording-unit-of-work';
import { InMemoryProject, InMemoryTaskCreateRepository, InMemoryTaskMoveRepository, InMemoryTaskRepository, InMemoryTaskStore, InMemoryTaskValueRepository } from './tasks';

/** Fixed ids, so a spec reads like the contract. */
export const IDS = {
  project: '10000000-0000-4000-8000-000000000001',
  owner: '20000000-0000-4000-8000-000000000001',
  ann: '20000000-0000-4000-8000-000000000002',
  status: '30000000-0000-4000-8000-000000000001',
  who: '30000000-0000-4000-8000-000000000002',
  size: '30000000-0000-4000-8000-000000000003',
  labels: '30000000-0000-4000-8000-000000000004',
  todo: '40000000-0000-4000-8000-000000000001',
  doing: '40000000-0000-4000-8000-000000000002',
  bug: '40000000-0000-4000-8000-000000000003',
  ui: '40000000-0000-4000-8000-000000000004',
} as const;

const def = (id: string, name: string, type: string, position: string, optionIds: string[] = []): PropertyDef => ({ id, name, type, position, config: {}, optionIds: new Set(optionIds) });

/** A clock that moves only when told. */
export class StillClock extends Clock {
  at = new Date('2026-01-05T10:00:00.000Z');
  now(): Date {
    return new Date(this.at);
  }
}

/**
 * One project (key WEB) with Status (select: Todo, Doing), Who (person), Size (number) and Labels
 * (multi-select: Bug, UI), two members (Owner, Ann), the in-memory task adapters over one store,
 * a recording unit of work and the read models the task services use, answered from the store.
 */
export function taskWorld() {
  const store = new InMemoryTaskStore();
  const project: InMemoryProject = {
    id: IDS.project,
    key: 'WEB',
    doneWhen: null,
    defs: [
      def(IDS.status, 'Status', 'select', 'a0', [IDS.todo, IDS.doing]),
      def(IDS.who, 'Who', 'person', 'a1'),
      def(IDS.size, 'Size', 'number', 'a2'),
      def(IDS.labels, 'Labels', 'multi_select', 'a3', [IDS.bug, IDS.ui]),
    ],
    members: new Map([
      [IDS.owner, 'Owner'],
      [IDS.ann, 'Ann'],
    ]),
    optionNames: new Map([
      [IDS.todo, 'Todo'],
      [IDS.doing, 'Doing'],
      [IDS.bug, 'Bug'],
      [IDS.ui, 'UI'],
    ]),
    version: 1,
  };
  store.projects.set(project.id, project);
  const uow = new RecordingUnitOfWork();
  const clock = new StillClock();
  const caller: ProjectCaller = { userId: IDS.owner, kind: 'human', name: 'Owner', role: 'owner' as ProjectCaller['role'], projectId: IDS.project, clientId: 'tab-1' };
  const reads = {
    defs: {
      load: async (projectId: string) => store.project(projectId).defs,
      loadWithMembers: async (projectId: string) => ({ defs: store.project(projectId).defs, memberIds: new Set(store.project(projectId).members.keys()) }),
    } as unknown as PropertyDefsQuery,
    names: new ValueNamesQuery({
      query: async (_: unknown) => [],
      one: async () => null,
    } as never),
    facts: { load: async (projectId: string) => ({ key: store.project(projectId).key, doneWhen: store.project(projectId).doneWhen }) } as unknown as ProjectFactsQuery,
    // newTask builds a new task's board fields without a query.
    tasks: new TaskQuery(null as never),
    runs: { openOnTask: async () => null, past: async () => ({ runs: [] }), openRuns: async () => [] } as unknown as RunQuery,
  };
  // The names of options and people, from the store (what ValueNamesQuery reads from its tables).
  Object.assign(reads.names, {
    optionNames: async (projectId: string, _propertyId: string, ids: string[]) =>
      ids.filter((id) => store.project(projectId).optionNames.has(id)).map((id) => ({ id, name: store.project(projectId).optionNames.get(id) as string })),
    personName: async (userId: string) => store.project(IDS.project).members.get(userId) ?? null,
  });
  return {
    store,
    project,
    uow,
    clock,
    caller,
    reads,
    repos: {
      tasks: new InMemoryTaskRepository(store),
      creates: new InMemoryTaskCreateRepository(store),
      values: new InMemoryTaskValueRepository(store),
      moves: new InMemoryTaskMoveRepository(store),
    },
  };
}

export type TaskWorld = ReturnType<typeof taskWorld>;
