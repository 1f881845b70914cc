import { changesByLine, changesData, createdLineData, SelectChanges, selectChanges } from './feed';

describe('what feed lines carry for charts', () => {
  const defs = [
    { id: 'status', type: 'select' },
    { id: 'kind', type: 'select' },
    { id: 'tags', type: 'multi_select' },
    { id: 'notes', type: 'text' },
  ];

  it('a created line: every select the new task holds, and nothing else', () => {
    expect(createdLineData({ status: 'done', tags: ['a'], notes: 'hi' }, defs)).toEqual({ selects: { status: 'done' } });
    expect(createdLineData({}, defs)).toEqual({ selects: {} });
  });

  it('the select changes of a write, as [from, to]', () => {
    expect(selectChanges({ status: 'a', kind: 'x', tags: ['a'] }, { status: 'b', tags: [] }, defs)).toEqual({ status: ['a', 'b'], kind: ['x', null] });
    expect(selectChanges({ status: 'a' }, { status: 'a', notes: 'n' }, defs)).toEqual({});
  });

  it('each change told once: its own line, the rest on the first line', () => {
    const all: SelectChanges = { status: ['a', 'b'], kind: ['x', null] };
    expect(changesByLine({ ...all }, ['notes', 'status'])).toEqual([{ kind: ['x', null] }, { status: ['a', 'b'] }]);
    expect(changesByLine({ ...all }, ['status'])).toEqual([{ status: ['a', 'b'], kind: ['x', null] }]);
    expect(changesData({})).toEqual({});
    expect(changesData({ status: [null, 'a'] })).toEqual({ changes: { status: [null, 'a'] } });
  });
});
