import { Clock } from '@board/kernel';
import { PropertyDef } from '@board/properties';
import { ProjectCaller } from '../../../apps/api/src/auth/auth-context';
import { RecordingUnitOfWork } from '../recording-unit-of-work';
import { InMemoryPropertyDefsQuery } from './property-defs-query';
import { InMemoryRunQuery } from './run-query';
import { InMemoryRunRepository } from './run-repository';
import { InMemoryProjectFactsQuery, InMemoryTaskQuery, InMemoryValueNamesQuery } from './task-reads';
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
  // The runs the task reads show (the queue's and the runs' specs open them here).
  const runs = new InMemoryRunRepository();
  const reads = {
    defs: new InMemoryPropertyDefsQuery((projectId) => store.project(projectId).defs, (projectId) => store.project(projectId).members.keys()),
    names: new InMemoryValueNamesQuery(store),
    facts: new InMemoryProjectFactsQuery(store),
    tasks: new InMemoryTaskQuery(store),
    runs: new InMemoryRunQuery(runs),
  };
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
      runs,
    },
  };
}

export type TaskWorld = ReturnType<typeof taskWorld>;
