import { IDS, taskWorld, TaskWorld } from '../../../../test/support/in-memory/task-world';
import { LinksService } from './links.service';
import { TasksService } from './tasks.service';

const refusal = (code: string) => expect.objectContaining({ code });

describe('LinksService', () => {
  let w: TaskWorld;
  let links: LinksService;
  let tasks: TasksService;
  let a: string;
  let b: string;
  let c: string;

  beforeEach(async () => {
    w = taskWorld();
    links = new LinksService(w.repos.tasks, w.reads.facts, w.uow);
    tasks = new TasksService(w.repos.tasks, w.reads.tasks, w.reads.defs, w.reads.facts, w.uow, w.clock, w.reads.names, w.reads.runs, w.repos.values, w.repos.creates, w.repos.moves);
    const ids: string[] = [];
    // One after the other: A is WEB-1, B WEB-2, C WEB-3.
    for (const title of ['A', 'B', 'C']) ids.push((await tasks.create(w.caller, { title, description: '', placement: 'end', values: undefined })).id);
    [a, b, c] = ids;
    w.uow.clear();
  });

  const told = () => w.uow.lines.map((l) => [l.taskId, l.kind, l.data]);

  it('a blocker: a link line with the blocker’s key and the board notice for the task, under the project lock; again, nothing', async () => {
    await links.addBlocker(w.caller, a, { blockerId: b });
    await links.addBlocker(w.caller, a, { blockerId: b });
    expect(told()).toEqual([[a, 'link', { action: 'linked', blockerKey: 'WEB-2' }]]);
    expect(w.uow.notices).toEqual([{ projectId: IDS.project, scope: 'board', taskId: a, clientId: 'tab-1' }]);
    expect(w.uow.writes.every((x) => x.options?.lockProject === IDS.project)).toBe(true);
    await links.removeBlocker(w.caller, a, b);
    await links.removeBlocker(w.caller, a, b);
    expect(told()[1]).toEqual([a, 'link', { action: 'unlinked', blockerKey: 'WEB-2' }]);
    expect(told()).toHaveLength(2);
  });

  it('refuses a circle, the task itself and a blocker not on the board, telling nothing', async () => {
    await links.addBlocker(w.caller, a, { blockerId: b });
    w.uow.clear();
    await expect(links.addBlocker(w.caller, b, { blockerId: a })).rejects.toEqual(expect.objectContaining({ code: 'link.circle', params: { blocker: 'WEB-1', task: 'WEB-2' } }));
    await expect(links.addBlocker(w.caller, a, { blockerId: a })).rejects.toEqual(refusal('link.self'));
    await tasks.remove(w.caller, c);
    w.uow.clear();
    await expect(links.addBlocker(w.caller, a, { blockerId: c })).rejects.toEqual(refusal('task.not_on_board'));
    await expect(links.addBlocker(w.caller, IDS.todo, { blockerId: a })).rejects.toEqual(refusal('task.not_found'));
    await expect(links.removeBlocker(w.caller, a, 'nope')).rejects.toEqual(refusal('id.invalid'));
    expect(w.uow.events).toEqual([]);
  });

  it('parts: parented, moving to another parent tells unparented first, clearing tells unparented', async () => {
    expect(await links.setParent(w.caller, a, { parentId: b })).toBeNull();
    expect(await links.setParent(w.caller, a, { parentId: b })).toBeNull();
    expect(await links.setParent(w.caller, a, { parentId: c })).toBe('WEB-2');
    await links.clearParent(w.caller, a);
    await links.clearParent(w.caller, a);
    expect(told()).toEqual([
      [a, 'link', { action: 'parented', parentKey: 'WEB-2' }],
      [a, 'link', { action: 'unparented', parentKey: 'WEB-2' }],
      [a, 'link', { action: 'parented', parentKey: 'WEB-3' }],
      [a, 'link', { action: 'unparented', parentKey: 'WEB-3' }],
    ]);
    expect(w.uow.notices).toHaveLength(3);
  });

  it('refuses parts deeper than one level, and the task itself', async () => {
    await links.setParent(w.caller, a, { parentId: b });
    w.uow.clear();
    await expect(links.setParent(w.caller, c, { parentId: a })).rejects.toEqual(refusal('parent.is_part'));
    await expect(links.setParent(w.caller, b, { parentId: c })).rejects.toEqual(refusal('parent.has_parts'));
    await expect(links.setParent(w.caller, c, { parentId: c })).rejects.toEqual(refusal('parent.self'));
    expect(w.uow.events).toEqual([]);
  });
});
