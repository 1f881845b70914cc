import { BoardLists, BoardQuery, ChangelogQuery, RunQuery, TaskQuery } from '@board/persistence';
import { ViewRepository } from '@board/views';
import { AppConfig } from '../config/app-config';
import { RunsService } from '../runs/runs.service';
import { IDS } from '../../../../test/support/in-memory/task-world';
import { BoardCache } from './board-cache';
import { BoardService } from './board.service';

/**
 * The board read through its ports: it closes overdue runs first (the only write it causes, told by
 * the runs service), answers the contract's keys in order, and builds the task lists only when the
 * project's rows changed.
 */
describe('BoardService', () => {
  const calls: string[] = [];
  let fingerprint = 'fp-1';
  let settings: Awaited<ReturnType<BoardQuery['settings']>> = null;
  const lists = (n: number): BoardLists => ({
    projectKey: 'WEB',
    tasksJson: Buffer.from(JSON.stringify(Array.from({ length: n }, (_, i) => ({ key: `WEB-${i + 1}` })))),
    archivedJson: Buffer.from('[]'),
    firstThreeJson: Buffer.from(JSON.stringify(Array.from({ length: Math.min(n, 3) }, (_, i) => ({ key: `WEB-${i + 1}` })))),
    taskCount: n,
    pieces: new Map(),
  });
  let built = 0;
  const service = () =>
    new BoardService(
      { settings: async () => (calls.push('settings'), settings) } as unknown as BoardQuery,
      {
        boardFingerprint: async () => (calls.push('fingerprint'), fingerprint),
        boardLists: async () => (calls.push('lists'), lists(++built + 3)),
      } as unknown as TaskQuery,
      { expireOverdue: async () => void calls.push('expire') } as unknown as RunsService,
      { openRuns: async () => (calls.push('runs'), []) } as unknown as RunQuery,
      { list: async () => (calls.push('views'), []) } as unknown as ViewRepository,
      new BoardCache({ SERVICE_BOARD_CACHE_BYTES: 1 << 20 } as AppConfig),
      { list: async () => [] } as unknown as ChangelogQuery,
    );
  const caller = { userId: IDS.owner, kind: 'human' as const, name: 'Owner', role: 'owner' as never, projectId: IDS.project, clientId: null };
  const read = async (board: BoardService) => JSON.parse(Buffer.concat(await board.readBoardClosingOverdueRuns(caller)).toString('utf8'));

  beforeEach(() => {
    calls.length = 0;
    built = 0;
    fingerprint = 'fp-1';
    settings = { project: { id: IDS.project, key: 'WEB', doneWhen: null } as never, invites: [], members: [], properties: [], cardView: { rows: {} } };
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
