import { DomainError } from '@board/kernel';
import { isBoardExport, readBoardExport } from './board-export';
import { planBoardExport, remapIds } from './board-export-plan';

const DOC = {
  format: 'task-board-export',
  version: 1,
  project: { doneWhen: null, members: [{ id: 'old-ann', email: 'Ann@Example.com' }, { id: 'old-bot', email: null }] },
  properties: [
    { id: 'p-status', name: 'Status', type: 'select', position: 'a0', options: [{ id: 'o-todo', name: 'To do', color: 'gray', position: 'a0' }] },
    { id: 'p-who', name: 'Who', type: 'person', position: 'a1', options: [] },
  ],
  views: [{ id: 'v1', name: 'Board', kind: 'board', groupById: 'p-status', position: 'a0', filters: { rules: [{ propertyId: 'p-status', values: ['o-todo'] }] } }],
  cardView: { rows: { 'p-who': { place: 'footer', mode: 'text' } } },
  rules: { text: 'Be kind', updatedAt: null },
  tasks: [
    { id: 't1', number: 1, title: 'One', position: 'a0', values: { 'p-status': 'o-todo', 'p-who': 'old-bot' }, parentId: 't2', blockers: ['t2'],
      comments: [{ body: 'hi', author: { id: 'old-ann', name: 'Ann' } }, { body: 'beep', author: { id: 'old-bot', name: 'Bot' } }] },
    { id: 't2', number: 2, title: 'Two', position: 'a1', values: { 'p-who': 'old-ann' }, deletedAt: '2026-01-01T00:00:00.000Z' },
  ],
  runs: [{ id: 'r1', taskId: 't1', agent: { id: 'old-bot' }, status: 'running', endedAt: null, days: [] }],
  activity: [{ id: 'a1', taskId: 't1', actorId: 'old-ann', kind: 'created', data: { selects: { 'p-status': 'o-todo' } } }],
};

/** New ids as the service makes them (uuids: option values are checked to be ones), counted. */
const counter = () => {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
};
const plan = () =>
  planBoardExport(readBoardExport(DOC), { members: [{ id: 'ann', email: 'ann@example.com' }], importerId: 'me', now: new Date('2026-02-01T00:00:00Z'), newId: counter() });
const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return e instanceof DomainError ? e.code : 'not a domain error';
  }
  return undefined;
};

describe('planBoardExport', () => {
  it('tells an export from anything else by its format', () => {
    expect(isBoardExport(DOC)).toBe(true);
    expect(isBoardExport({ lists: [] })).toBe(false);
    expect(isBoardExport([DOC])).toBe(false);
  });

  it('gives every id a new one and makes every reference follow it', () => {
    const p = plan();
    const ids = new Map([['p-status', p.properties[0].id], ['o-todo', p.options[0].id], ['t2', p.tasks[1].id]]);
    expect(p.views[0]).toMatchObject({ groupById: ids.get('p-status'), filters: { rules: [{ propertyId: ids.get('p-status'), values: [ids.get('o-todo')] }] } });
    expect(p.tasks[0]).toMatchObject({ parentId: ids.get('t2'), values: { [ids.get('p-status')!]: ids.get('o-todo') }, sourceId: 't1' });
    expect(p.links).toEqual([{ taskId: p.tasks[0].id, blockerId: ids.get('t2') }]);
    expect(p.history[0].data).toEqual({ selects: { [ids.get('p-status')!]: ids.get('o-todo') } });
    expect(Object.keys((p.project.cardView as { rows: object }).rows)).toEqual([p.properties[1].id]);
  });

  it('matches people by email, ignoring case, and drops or names those it cannot match', () => {
    const p = plan();
    const who = p.properties[1].id;
    expect(p.tasks[0].values[who]).toBeUndefined();
    expect(p.tasks[1].values[who]).toBe('ann');
    expect(p.comments.map((c) => [c.authorId, c.body])).toEqual([['ann', 'hi'], ['me', '**Bot** wrote:\n\n> beep']]);
    expect(p.history[0].actorId).toBe('ann');
    expect(p.runs[0].agentId).toBeNull();
  });

  it('closes open runs as lost and keeps deleted tasks deleted, out of the count', () => {
    const p = plan();
    expect(p.runs[0]).toMatchObject({ status: 'lost', endedAt: '2026-02-01T00:00:00.000Z' });
    expect(p.tasks[1].deletedAt).toBe('2026-01-01T00:00:00.000Z');
    expect([p.liveCount, p.lastNumber]).toEqual([1, 2]);
  });

  it('keeps distinct valid ranks, and ranks afresh, in the order read, an export whose ranks repeat or are not keys', () => {
    expect(plan().tasks.map((t) => t.position)).toEqual(['a0', 'a1']);
    const ranksOf = (positions: unknown[]) =>
      planBoardExport(readBoardExport({ ...DOC, tasks: DOC.tasks.map((t, i) => ({ ...t, position: positions[i] })) }), {
        members: [], importerId: 'me', now: new Date('2026-02-01T00:00:00Z'), newId: counter(),
      }).tasks.map((t) => [t.sourceId, t.position]);
    expect(ranksOf(['b7', 'b7'])).toEqual([['t1', 'a0'], ['t2', 'a1']]);
    expect(ranksOf(['c', 'a5'])).toEqual([['t1', 'a1'], ['t2', 'a0']]);
    expect(ranksOf([undefined, 'a5'])).toEqual([['t1', 'a0'], ['t2', 'a1']]);
  });

  it('refuses a reference to a task the export does not hold, a wrong version and a missing section', () => {
    expect(codeOf(() => planBoardExport(readBoardExport({ ...DOC, tasks: [{ ...DOC.tasks[0], parentId: 'gone' }] }), { members: [], importerId: 'me', now: new Date(), newId: counter() }))).toBe('import.export_reference');
    expect(codeOf(() => readBoardExport({ ...DOC, version: 2 }))).toBe('import.export_version');
    expect(codeOf(() => readBoardExport({ ...DOC, runs: undefined }))).toBe('import.export_section');
    expect(codeOf(() => readBoardExport({ ...DOC, views: [DOC.views[0], DOC.views[0]] }))).toBe('import.duplicate');
    // A value of the wrong kind is refused as a write of it would be.
    const badValue = { ...DOC, tasks: [{ ...DOC.tasks[1], values: { 'p-status': 'p-who' } }] };
    expect(codeOf(() => planBoardExport(readBoardExport(badValue), { members: [], importerId: 'me', now: new Date(), newId: counter() }))).toBe('value.option_gone');
  });

  it('remaps keys and strings anywhere in a value, and leaves other values as they are', () => {
    expect(remapIds({ a: ['a', 1, null, { b: 'a' }] }, new Map([['a', 'z']]))).toEqual({ z: ['z', 1, null, { b: 'z' }] });
  });
});
