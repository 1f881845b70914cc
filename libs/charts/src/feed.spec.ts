import { createdLineData, valueLineIds } from './feed';

describe('what feed lines carry for charts', () => {
  const defs = [
    { id: 'status', type: 'select' },
    { id: 'tags', type: 'multi_select' },
    { id: 'sprint', type: 'iteration' },
    { id: 'notes', type: 'text' },
  ];

  it('a created line: every select the new task holds, and nothing else', () => {
    expect(createdLineData({ status: 'done', tags: ['a'], sprint: 's1', notes: 'hi' }, defs)).toEqual({ selects: { status: 'done' } });
    expect(createdLineData({}, defs)).toEqual({ selects: {} });
  });

  it('a value line of a select: the property id and the option id, null when cleared', () => {
    expect(valueLineIds(defs[0], 'done')).toEqual({ propertyId: 'status', optionId: 'done' });
    expect(valueLineIds(defs[0], null)).toEqual({ propertyId: 'status', optionId: null });
    expect(valueLineIds(defs[0], '')).toEqual({ propertyId: 'status', optionId: null });
    expect(valueLineIds(defs[1], ['a'])).toEqual({});
    expect(valueLineIds(defs[3], 'text')).toEqual({});
  });
});
