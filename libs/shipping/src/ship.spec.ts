import { DomainError } from '@board/kernel';
import { OptionRecord, PropertyDef, TaskValues } from '@board/properties';
import { Task } from '@board/tasks';
import { checkShip, planShip, readShipRest, readShipStrays, shipDay, shipRingKinds, ShipInput } from './ship';

const opt = (id: string, extra: Partial<OptionRecord> = {}): OptionRecord => ({
  id, propertyId: 'rel', name: id.toUpperCase(), color: '#000000', position: id, startsOn: null, targetOn: '2026-01-01', note: null, shippedAt: null, ...extra,
});
const code = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as DomainError).code;
  }
  return 'passed';
};
const dated = { type: 'select', config: { dated: true } };
const on = { releases: true, sprints: true };

describe('a ship request', () => {
  it('needs rest, and strays as a boolean when sent', () => {
    expect([readShipRest('next'), readShipStrays(undefined), readShipStrays(null)]).toEqual(['next', false, false]);
    expect([readShipRest('clear'), readShipStrays(true)]).toEqual(['clear', true]);
    expect(code(() => readShipRest(undefined))).toBe('ship.rest_invalid');
    expect(code(() => readShipRest('NEXT'))).toBe('ship.rest_invalid');
    expect(code(() => readShipStrays(1))).toBe('input.boolean');
  });
});

describe('checkShip', () => {
  const a = opt('a');
  const b = opt('b', { shippedAt: '2026-01-02' });
  const c = opt('c');
  const target = (option: OptionRecord, extra: object = {}) => ({ option, property: dated, siblings: [a, b, c], project: on, ...extra });

  it('finds the next open option, skipping shipped ones', () => {
    expect(checkShip(target(a), { rest: 'next', strays: false })).toEqual({ kind: 'release', next: c });
    expect(checkShip(target(a), { rest: 'leave', strays: false }).next).toBeNull();
  });
  it('refuses what cannot ship', () => {
    expect(code(() => checkShip(target(c), { rest: 'next', strays: false }))).toBe('ship.last_option');
    expect(code(() => checkShip(target(b), { rest: 'leave', strays: false }))).toBe('ship.already_shipped');
    expect(code(() => checkShip(target(opt('x', { targetOn: null })), { rest: 'leave', strays: false }))).toBe('ship.no_target');
    expect(code(() => checkShip(target(a, { property: { type: 'select', config: {} } }), { rest: 'leave', strays: false }))).toBe('ship.no_target');
    expect(code(() => checkShip(target(a, { project: { releases: false, sprints: true } }), { rest: 'leave', strays: false }))).toBe('ship.releases_off');
    expect(code(() => checkShip(target(a, { property: { type: 'iteration', config: {} }, project: { releases: true, sprints: false } }), { rest: 'leave', strays: false }))).toBe('ship.sprints_off');
  });
});

describe('planShip', () => {
  const rel: PropertyDef = { id: 'rel', name: 'Release', type: 'select', position: 'a', config: { dated: true }, optionIds: new Set(['a', 'c']) };
  const status: PropertyDef = { id: 'st', name: 'Status', type: 'select', position: 'b', config: {}, optionIds: new Set(['todo', 'done']) };
  const task = (id: string, values: TaskValues, archived = false) =>
    Task.restore({ id, projectId: 'p', number: 1, title: id, description: '', position: id, values, parentId: null, archivedAt: archived ? new Date(0) : null, deletedAt: null });
  const input = (tasks: Task[], over: Partial<ShipInput> = {}): ShipInput => ({
    projectId: 'p', actorId: 'u', shipId: 'ship-1', now: new Date('2026-05-05T10:00:00Z'), kind: 'release',
    request: { rest: 'next', strays: false }, option: opt('a'), next: opt('c'), property: rel, defs: [rel, status],
    doneWhen: { propertyId: 'st', optionIds: ['done'] }, tasks, ...over,
  });

  it('archives over tasks, moves the rest, leaves archived open ones, and stamps every line with the ship id', () => {
    const plan = planShip(input([
      task('t1', { rel: 'a', st: 'done' }),
      task('t2', { rel: 'a', st: 'todo' }),
      task('t3', { rel: 'a', st: 'done' }, true),
      task('t4', { rel: 'a' }, true),
    ]));
    expect({ archived: plan.archived, moved: plan.moved, taken: plan.taken }).toEqual({ archived: 1, moved: 1, taken: 0 });
    expect(plan.shipped).toEqual(['t1', 't3']);
    expect(plan.changed.map((t) => t.id)).toEqual(['t1', 't2']);
    expect(plan.changed[1].values).toEqual({ rel: 'c', st: 'todo' });
    expect(plan.lines.map((l) => [l.taskId, l.kind, l.data])).toEqual([
      ['t1', 'archive', { action: 'archived', shipId: 'ship-1' }],
      ['t2', 'value', { property: 'Release', value: 'C', changes: { rel: ['a', 'c'] }, shipId: 'ship-1' }],
    ]);
    expect(shipRingKinds(plan.lines)).toEqual(['archive', 'value']);
  });

  it('takes strays only for a release asked to, only over live ones in no release', () => {
    const tasks = () => [task('s1', { st: 'done' }), task('s2', { st: 'todo' }), task('s3', { st: 'done' }, true)];
    const plan = planShip(input(tasks(), { request: { rest: 'leave', strays: true } }));
    expect({ archived: plan.archived, taken: plan.taken, shipped: plan.shipped }).toEqual({ archived: 1, taken: 1, shipped: ['s1'] });
    expect(plan.changed[0].values).toEqual({ rel: 'a', st: 'done' });
    expect(plan.lines.map((l) => [l.taskId, l.kind, l.data])).toEqual([
      ['s1', 'value', { property: 'Release', value: 'A', changes: { rel: [null, 'a'] }, shipId: 'ship-1' }],
      ['s1', 'archive', { action: 'archived', shipId: 'ship-1' }],
    ]);
    expect(planShip(input(tasks(), { kind: 'sprint', request: { rest: 'leave', strays: true } })).taken).toBe(0);
    expect(planShip(input(tasks(), { request: { rest: 'leave', strays: false } })).taken).toBe(0);
  });

  it('clear takes the value off; leave writes nothing', () => {
    const cleared = planShip(input([task('t', { rel: 'a' })], { request: { rest: 'clear', strays: false }, next: null }));
    expect(cleared.changed[0].values).toEqual({});
    expect(cleared.lines[0].data).toEqual({ property: 'Release', value: null, changes: { rel: ['a', null] }, shipId: 'ship-1' });
    const left = planShip(input([task('t', { rel: 'a' })], { request: { rest: 'leave', strays: false }, next: null }));
    expect(left.changed).toEqual([]);
    expect(shipRingKinds(left.lines)).toEqual([]);
  });
});

describe('planShip lines for charts', () => {
  const rel: PropertyDef = { id: 'rel', name: 'Release', type: 'select', position: 'a', config: { dated: true }, optionIds: new Set(['a', 'c']) };
  const sprint: PropertyDef = { id: 'spr', name: 'Sprint', type: 'iteration', position: 'b', config: {}, optionIds: new Set(['s1', 's2']) };
  // Review shows only while the task is in release a or in sprint s1; Notes (text) only in release a.
  const review: PropertyDef = { id: 'rev', name: 'Review', type: 'select', position: 'c', config: { when: { propertyId: 'rel', optionIds: ['a'] } }, optionIds: new Set(['x']) };
  const notes: PropertyDef = { id: 'notes', name: 'Notes', type: 'text', position: 'd', config: { when: { propertyId: 'rel', optionIds: ['a'] } }, optionIds: new Set() };
  const gate: PropertyDef = { id: 'gate', name: 'Gate', type: 'select', position: 'e', config: { when: { propertyId: 'spr', optionIds: ['s1'] } }, optionIds: new Set(['g']) };
  const task = (id: string, values: TaskValues) =>
    Task.restore({ id, projectId: 'p', number: 1, title: id, description: '', position: id, values, parentId: null, archivedAt: null, deletedAt: null });
  const base = {
    projectId: 'p', actorId: 'u', shipId: 'ship-1', now: new Date('2026-05-05T10:00:00Z'), defs: [rel, sprint, review, notes, gate],
    doneWhen: null, request: { rest: 'next' as const, strays: false },
  };

  it('a release move tells the changed release and every select a when rule dropped, not other types', () => {
    const plan = planShip({ ...base, kind: 'release', option: opt('a'), next: opt('c'), property: rel, tasks: [task('t', { rel: 'a', rev: 'x', notes: 'n' })] });
    expect(plan.lines[0].data).toEqual({
      property: 'Release', value: 'C', changes: { rel: ['a', 'c'], rev: ['x', null] },
      dropped: ['Review', 'Notes'], propertyIds: ['rev', 'notes'], hidBy: 'c', shipId: 'ship-1',
    });
  });

  it('a sprint move (an iteration, not followed) tells only the selects it dropped, and nothing when none', () => {
    const plan = planShip({ ...base, kind: 'sprint', option: opt('s1'), next: opt('s2'), property: sprint, tasks: [task('t', { spr: 's1', gate: 'g' }), task('u', { spr: 's1' })] });
    expect(plan.lines.map((l) => l.data.changes)).toEqual([{ gate: ['g', null] }, undefined]);
  });
});

describe('shipDay', () => {
  it('is the UTC day', () => {
    expect(shipDay(new Date('2026-03-04T23:30:00-05:00'))).toBe('2026-03-05');
  });
});
