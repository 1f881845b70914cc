import { PropertyDef } from '@board/properties';
import { Task } from './task';
import { createdLine, readValuesMap, sendsNoValues } from './task-values';

const def = (id: string, name: string, type: string, optionIds: string[] = [], config: PropertyDef['config'] = {}): PropertyDef => ({ id, name, type, position: id, config, optionIds: new Set(optionIds) });

// Status (select: todo, bug), Severity (select: high; shown only while Status is bug), Who (person).
const DEFS = [def('status', 'Status', 'select', ['todo', 'bug']), def('severity', 'Severity', 'select', ['high'], { when: { propertyId: 'status', optionIds: ['bug'] } }), def('who', 'Who', 'person')];
const NAMES = new Map([
  ['todo', 'Todo'],
  ['bug', 'Bug'],
  ['high', 'High'],
  ['ann', 'Ann'],
]);

const task = (values: Record<string, string>) =>
  Task.restore({ id: 't', projectId: 'p', number: 1, title: 'T', description: '', position: 'a', values, parentId: null, archivedAt: null, deletedAt: null });
const byId = (id: string) => DEFS.find((d) => d.id === id) as PropertyDef;

describe('Task.putValue: the value rules every value write shares', () => {
  it('writes the value and tells one line with the names and the select change', () => {
    const t = task({});
    const change = t.putValue(byId('status'), 'bug', DEFS, NAMES);
    expect(t.values).toEqual({ status: 'bug' });
    expect(change).toEqual({ changed: true, dropped: [], lines: [{ propertyId: 'status', data: { property: 'Status', value: 'Bug', changes: { status: [null, 'bug'] } }, assigned: [] }] });
  });

  it('drops what a `when` rule now hides, and says so on the line that hid it', () => {
    const t = task({ status: 'bug', severity: 'high' });
    const change = t.putValue(byId('status'), 'todo', DEFS, NAMES);
    expect(t.values).toEqual({ status: 'todo' });
    expect(change.dropped).toEqual([{ propertyId: 'severity', name: 'Severity' }]);
    expect(change.lines[0].data).toEqual({
      property: 'Status', value: 'Todo', changes: { status: ['bug', 'todo'], severity: ['high', null] }, dropped: ['Severity'], propertyIds: ['severity'], hidBy: 'todo',
    });
  });

  it('carries the people a write newly assigns, never those it keeps or clears', () => {
    const t = task({});
    expect(t.putValue(byId('who'), 'ann', DEFS, NAMES).lines[0]).toEqual({ propertyId: 'who', data: { property: 'Who', value: 'Ann' }, assigned: [{ propertyId: 'who', propertyName: 'Who', userIds: ['ann'] }] });
    expect(t.putValue(byId('who'), 'ann', DEFS, NAMES)).toEqual({ changed: false, dropped: [], lines: [] });
    expect(t.putValue(byId('who'), null, DEFS, NAMES).lines[0].assigned).toEqual([]);
  });

  it('several values at once (a move): a line each, the changes no line is about on the first', () => {
    const t = task({ status: 'bug', severity: 'high' });
    const change = t.putValues(new Map<string, string | null>([['who', 'ann'], ['status', 'todo']]), DEFS, NAMES);
    expect(change.lines.map((l) => [l.propertyId, l.data.changes])).toEqual([
      ['who', { severity: ['high', null] }],
      ['status', { status: ['bug', 'todo'] }],
    ]);
  });

  it('a created task: its selects, and everyone its person values name', () => {
    expect(createdLine({ status: 'todo', who: 'ann' }, DEFS)).toEqual({ data: { selects: { status: 'todo' } }, assigned: [{ propertyId: 'who', propertyName: 'Who', userIds: ['ann'] }] });
  });
});

describe('sendsNoValues', () => {
  it('is absent, null or {} only: what readValuesMap reads as nothing without a definition', () => {
    for (const raw of [undefined, null, {}]) {
      expect(sendsNoValues(raw)).toBe(true);
      expect(readValuesMap(raw, [], { memberIds: new Set() }).size).toBe(0);
    }
    for (const raw of [{ x: 1 }, [], 3, 'x', false]) expect(sendsNoValues(raw)).toBe(false);
  });
});
