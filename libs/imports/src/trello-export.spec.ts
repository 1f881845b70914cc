import { readTrelloExport } from './trello-export';
import { refusal } from '../../../test/support/refusal';

const list = (id: string, extra: Record<string, unknown> = {}) => ({ id, name: `List ${id}`, closed: false, pos: 1, ...extra });
const card = (id: string, extra: Record<string, unknown> = {}) => ({ id, name: `Card ${id}`, idList: 'l1', closed: false, pos: 1, desc: '', due: null, idLabels: [], ...extra });
const board = (extra: Record<string, unknown> = {}) => ({ lists: [list('l1')], cards: [card('c1')], labels: [{ id: 'b1', name: 'Bug', color: 'red' }], ...extra });

describe('readTrelloExport', () => {
  it('reads lists, labels, cards, checklists and only the comment actions', () => {
    const read = readTrelloExport(
      board({
        cards: [card('c1', { due: '2019-04-26T19:00:00.000Z', idLabels: ['b1', 'b1'], closed: true, desc: '# Hi' })],
        checklists: [{ id: 'k1', idCard: 'c1', pos: 2, checkItems: [{ id: 'i1', name: 'One', state: 'complete', pos: 1 }, { id: 'i2', name: 'Two', state: 'incomplete' }] }],
        actions: [
          { id: 'a1', type: 'commentCard', date: '2019-06-10T21:31:37.832Z', data: { text: 'Hello', card: { id: 'c1' } }, memberCreator: { fullName: 'Ankit', username: 'ankitsri' } },
          { id: 'a2', type: 'commentCard', date: '2019-06-11T00:00:00.000Z', data: { text: 'Who?', card: { id: 'c1' } }, memberCreator: { fullName: ' ', username: 'kay' } },
          { id: 'a3', type: 'commentCard', date: '2019-06-12T00:00:00.000Z', data: { text: 'Nobody', card: { id: 'c1' } } },
          { id: 'a4', type: 'updateCard', data: 42 },
          'not even an object',
        ],
      }),
    );
    expect(read.lists).toEqual([{ id: 'l1', name: 'List l1', closed: false, pos: 1 }]);
    expect(read.labels).toEqual([{ id: 'b1', name: 'Bug', color: 'red' }]);
    expect(read.cards).toEqual([
      { id: 'c1', name: 'Card c1', desc: '# Hi', closed: true, pos: 1, idList: 'l1', due: new Date('2019-04-26T19:00:00.000Z'), idLabels: ['b1'] },
    ]);
    expect(read.checklists).toEqual([{ id: 'k1', idCard: 'c1', pos: 2, items: [{ name: 'One', done: true, pos: 1 }, { name: 'Two', done: false, pos: 0 }] }]);
    expect(read.comments.map((c) => [c.text, c.author])).toEqual([['Hello', 'Ankit'], ['Who?', 'kay'], ['Nobody', 'Someone']]);
  });

  it('takes missing optional sections and fields as empty', () => {
    const read = readTrelloExport({ lists: [{ id: 'l1', name: 'Only' }], cards: [{ id: 'c1', name: 'Bare', idList: 'l1' }] });
    expect(read.cards[0]).toEqual({ id: 'c1', name: 'Bare', desc: '', closed: false, pos: 0, idList: 'l1', due: null, idLabels: [] });
    expect([read.labels, read.checklists, read.comments]).toEqual([[], [], []]);
    // Unnamed labels have a null name in some exports.
    expect(readTrelloExport(board({ labels: [{ id: 'b1', name: null, color: null }] })).labels).toEqual([{ id: 'b1', name: '', color: null }]);
  });

  it('refuses what is not an export at all', () => {
    for (const body of [undefined, null, {}, [], 'board', 42, true, { lists: [] }, { cards: [] }, { lists: {}, cards: [] }, { lists: [], cards: 'x' }]) {
      expect(refusal(() => readTrelloExport(body)).code).toBe('import.not_trello');
    }
  });

  it('names the entry and the field that is wrong', () => {
    const cases: [unknown, string, Record<string, unknown>][] = [
      [board({ labels: {} }), 'import.section', { section: 'labels' }],
      [board({ checklists: 'x' }), 'import.section', { section: 'checklists' }],
      [board({ cards: [null] }), 'import.entry', { thing: 'Card', index: 1 }],
      [board({ cards: [card('c1', { id: '' })] }), 'import.field', { thing: 'Card', id: '#1', field: 'id', kind: 'text' }],
      [board({ cards: [card('c1', { name: ['x'] })] }), 'import.field', { thing: 'Card', id: 'c1', field: 'name', kind: 'text' }],
      [board({ cards: [card('c1', { closed: 1 })] }), 'import.field', { thing: 'Card', id: 'c1', field: 'closed', kind: 'true or false' }],
      [board({ cards: [card('c1', { pos: 'top' })] }), 'import.field', { thing: 'Card', id: 'c1', field: 'pos', kind: 'a number' }],
      [board({ cards: [card('c1', { due: 'soon' })] }), 'import.field', { thing: 'Card', id: 'c1', field: 'due', kind: 'a date' }],
      [board({ cards: [card('c1', { due: '2019-13-45T00:00:00Z' })] }), 'import.field', { thing: 'Card', id: 'c1', field: 'due', kind: 'a date' }],
      [board({ cards: [card('c1', { due: 1556305200000 })] }), 'import.field', { thing: 'Card', id: 'c1', field: 'due', kind: 'a date' }],
      [board({ cards: [card('c1', { desc: {} })] }), 'import.field', { thing: 'Card', id: 'c1', field: 'desc', kind: 'text' }],
      [board({ cards: [card('c1', { idLabels: 'b1' })] }), 'import.field', { thing: 'Card', id: 'c1', field: 'idLabels', kind: 'a list of ids' }],
      [board({ cards: [card('c1', { idList: 'gone' })] }), 'import.unknown_list', { card: 'c1', list: 'gone' }],
      [board({ cards: [card('c1', { idLabels: ['gone'] })] }), 'import.unknown_label', { card: 'c1', label: 'gone' }],
      [board({ cards: [card('c1'), card('c1')] }), 'import.duplicate', { thing: 'Card', id: 'c1' }],
      [board({ lists: [list('l1'), list('l1')] }), 'import.duplicate', { thing: 'List', id: 'l1' }],
      [board({ lists: [list('l1', { closed: 'no' })] }), 'import.field', { thing: 'List', id: 'l1', field: 'closed', kind: 'true or false' }],
      [board({ labels: [{ id: 'b1', name: 'x', color: 7 }] }), 'import.field', { thing: 'Label', id: 'b1', field: 'color', kind: 'text' }],
      [board({ checklists: [{ id: 'k1', idCard: 'c1', checkItems: [{ id: 'i1', name: 3 }] }] }), 'import.field', { thing: 'Checklist item', id: 'i1', field: 'name', kind: 'text' }],
      [board({ actions: [{ id: 'a1', type: 'commentCard', date: '2019-01-01', data: { text: 'x' } }] }), 'import.field', { thing: 'Action', id: 'a1', field: 'data.card.id', kind: 'text' }],
      [board({ actions: [{ id: 'a1', type: 'commentCard', data: { text: 'x', card: { id: 'c1' } } }] }), 'import.field', { thing: 'Action', id: 'a1', field: 'date', kind: 'a date' }],
    ];
    for (const [body, code, params] of cases) {
      const e = refusal(() => readTrelloExport(body));
      expect({ code: e.code, params: e.params }).toEqual({ code, params });
    }
  });

  it('reads the due moments a date value can hold, and no others', () => {
    const due = (value: string) => readTrelloExport(board({ cards: [card('c1', { due: value })] })).cards[0].due;
    expect(due('2019-04-26T19:00:00.000Z')).toEqual(new Date('2019-04-26T19:00:00.000Z'));
    expect(due('2019-04-26')).toEqual(new Date('2019-04-26T00:00:00.000Z'));
    expect(due('2019-04-26T23:30:00-05:00')).toEqual(new Date('2019-04-27T04:30:00.000Z'));
    expect(() => due('+275760-09-13T00:00:00.000Z')).toThrow();
  });
});
