import type { BoardLists, BoardQuery, BoardSettings, ChangelogQuery } from '@board/persistence';
import type { ProjectCaller } from '../auth/auth-context';
import { AppConfig } from '../config/app-config';
import type { RunsService } from '../runs/runs.service';
import { InMemoryRunQuery } from '../../../../test/support/in-memory/run-query';
import { InMemoryRunRepository } from '../../../../test/support/in-memory/run-repository';
import { InMemoryTaskQuery } from '../../../../test/support/in-memory/task-reads';
import { IDS } from '../../../../test/support/in-memory/task-world';
import { InMemoryTaskStore } from '../../../../test/support/in-memory/tasks';
import { InMemoryViewRepository } from '../../../../test/support/in-memory/view-repository';
import { BoardCache } from './board-cache';
import { BoardService } from './board.service';

// The read models are in-memory fakes, the runs service a stand-in: their modules are not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));
jest.mock('../runs/runs.service', () => ({ RunsService: class {} }));

/**
 * The board read through its ports: it closes overdue runs first (the only write it causes, told by
 * the runs service), answers the contract's keys in order, and builds the task lists only when the
 * project's rows changed.
 */
describe('BoardService', () => {
  const calls: string[] = [];
  let fingerprint = 'fp-1';
  let settings: BoardSettings | null = null;
  const lists = (n: number): BoardLists => ({
    projectKey: 'WEB',
    tasksJson: Buffer.from(JSON.stringify(Array.from({ length: n }, (_, i) => ({ key: `WEB-${i + 1}` })))),
    archivedJson: Buffer.from('[]'),
    firstThreeJson: Buffer.from(JSON.stringify(Array.from({ length: Math.min(n, 3) }, (_, i) => ({ key: `WEB-${i + 1}` })))),
    taskCount: n,
    pieces: new Map(),
  });
  let built = 0;
  /** The task read model, counting its board reads: the fingerprint, and each build of the lists. */
  class CountedTaskQuery extends InMemoryTaskQuery {
    override async boardFingerprint(): Promise<string> {
      calls.push('fingerprint');
      return fingerprint;
    }

    override async boardLists(): Promise<BoardLists> {
      calls.push('lists');
      return lists(++built + 3);
    }
  }
  const boardQuery: BoardQuery = { settings: async () => (calls.push('settings'), settings) };
  const changelog: ChangelogQuery = { list: async () => [] };
  const service = () =>
    new BoardService(
      boardQuery,
      new CountedTaskQuery(new InMemoryTaskStore()),
      // The runs service is the one write a board read causes (its own spec covers what it closes).
      { expireOverdue: async () => void calls.push('expire') } as unknown as RunsService,
      new InMemoryRunQuery(new InMemoryRunRepository()),
      new InMemoryViewRepository(),
      new BoardCache({ SERVICE_BOARD_CACHE_BYTES: 1 << 20 } as AppConfig),
      changelog,
    );
  const caller: ProjectCaller = { userId: IDS.owner, kind: 'human', name: 'Owner', role: 'owner', projectId: IDS.project, clientId: null };
  const read = async (board: BoardService) => JSON.parse(Buffer.concat(await board.readBoardClosingOverdueRuns(caller)).toString('utf8'));

  beforeEach(() => {
    calls.length = 0;
    built = 0;
    fingerprint = 'fp-1';
    settings = { project: { id: IDS.project, name: 'Web', key: 'WEB', ownerId: IDS.owner, role: 'owner', doneWhen: null }, invites: [], members: [], properties: [], cardView: { rows: {} } };
  });

  it('closes overdue runs before it reads, and answers the contract’s keys in order', async () => {
    const answer = await read(service());
    expect(calls[0]).toBe('expire');
    expect(Object.keys(answer)).toEqual(['project', 'invites', 'members', 'properties', 'views', 'cardView', 'tasks', 'archived', 'runs']);
    expect(answer.tasks).toHaveLength(4);
  });

  it('builds the lists again only when the project’s rows changed', async () => {
    const board = service();
    await read(board);
    await read(board);
    expect(built).toBe(1);
    fingerprint = 'fp-2';
    expect((await read(board)).tasks).toHaveLength(5);
    expect(built).toBe(2);
  });

  it('the settings read: the first three tasks and the count', async () => {
    const answer = JSON.parse(Buffer.concat(await service().readSettingsClosingOverdueRuns(caller)).toString('utf8'));
    expect(answer.tasks).toHaveLength(3);
    expect(answer.taskCount).toBe(4);
  });

  it('refuses a project it cannot find', async () => {
    settings = null;
    await expect(read(service())).rejects.toEqual(expect.objectContaining({ code: 'project.not_found' }));
  });
});
