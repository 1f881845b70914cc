import { PropertyDef } from '@board/properties';
import { csvHeader, csvRow, neutralised } from './view-csv';

const def = (id: string, name: string, type: string): PropertyDef => ({ id, name, type, position: id, config: {} as PropertyDef['config'], optionIds: new Set() });

describe('a view as CSV', () => {
  const defs = [
    def('s', 'Status', 'select'),
    def('m', 'Labels', 'multi_select'),
    def('p', 'Owner', 'person'),
    def('n', 'Points', 'number'),
    def('d', 'Due', 'date'),
    def('c', 'Done?', 'checkbox'),
    def('l', 'Links', 'link'),
    def('t', 'Notes', 'text'),
  ];
  const names = new Map([['o1', 'Doing'], ['o2', '=Bad'], ['o3', 'Good'], ['u1', 'Ann Lee']]);
  const at = new Date('2026-11-26T10:00:00.123Z');

  it('names the columns: key, title, properties in order, created, updated', () => {
    expect(csvHeader(defs)).toEqual(['Key', 'Title', 'Status', 'Labels', 'Owner', 'Points', 'Due', 'Done?', 'Links', 'Notes', 'Created', 'Updated']);
    expect(csvHeader([{ name: '@sum' }])).toEqual(['Key', 'Title', "'@sum", 'Created', 'Updated']);
  });

  it('writes every value type as text, names joined by "; "', () => {
    const values = { s: 'o1', m: ['o3', 'o2', 'gone'], p: 'u1', n: -3.5, d: '2026-12-01', c: true, l: ['https://a.example', 'https://b.example'], t: 'plain' };
    expect(csvRow('TB', defs, { number: 7, title: 'Fix it', values, createdAt: at, updatedAt: at }, names)).toEqual([
      'TB-7', 'Fix it', 'Doing', 'Good; =Bad', 'Ann Lee', -3.5, '2026-12-01', 'true', 'https://a.example; https://b.example', 'plain',
      '2026-11-26T10:00:00.123Z', '2026-11-26T10:00:00.123Z',
    ]);
  });

  it('leaves empty values empty and an unset checkbox false', () => {
    const row = csvRow('TB', defs, { number: 1, title: 't', values: {}, createdAt: at, updatedAt: at }, names);
    expect(row.slice(2, 10)).toEqual(['', '', '', '', '', 'false', '', '']);
  });

  it('neutralises text that starts a formula, never a number', () => {
    for (const start of ['=', '+', '-', '@']) expect(neutralised(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(neutralised('a=b')).toBe('a=b');
    const row = csvRow('TB', defs, { number: 2, title: '=HYPERLINK("x")', values: { t: '-5', n: -5, s: 'o2' }, createdAt: at, updatedAt: at }, names);
    expect(row[1]).toBe('\'=HYPERLINK("x")');
    expect(row[2]).toBe("'=Bad");
    expect(row[5]).toBe(-5);
    expect(row[9]).toBe("'-5");
  });
});
