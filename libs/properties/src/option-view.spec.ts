import { optionView } from './option-view';

const record = {
  id: 'o', propertyId: 'p', name: 'v1', color: '#3fb0c8', position: 'a0',
  startsOn: '2024-01-01', targetOn: null, note: null, shippedAt: null,
};

describe('optionView', () => {
  it('shows the dated keys only for dated options', () => {
    expect(optionView(record, false)).toEqual({ id: 'o', propertyId: 'p', name: 'v1', color: '#3fb0c8', position: 'a0' });
    expect(optionView(record, true)).toEqual({ ...record });
  });
});
