import { OPTION_COLORS } from '@board/kernel';
import { cutText, ExistingProperty, ImportContext, planImport, quoteComment, SKIP_REASONS } from './import-plan';
import { colorName, labelColor } from './label-colors';
import { readTrelloExport } from './trello-export';
import { refusal } from '../../../test/support/refusal';

const status = (options: string[] = ['To do', 'In progress', 'Done']): ExistingProperty => ({
  id: 'status',
  name: 'Status',
  type: 'select',
  position: 'a0',
  options: options.map((name, i) => ({ id: `status-${i}`, name, color: OPTION_COLORS[i], position: `a${i}` })),
});

function context(extra: Partial<ImportContext> = {}): ImportContext {
  let n = 0;
  return { projectKey: 'TB', properties: [status()], lastTaskRank: null, imported: new Map(), newId: () => `id-${++n}`, ...extra };
}

const BOARD = {
  lists: [
    { id: 'l-done', name: ' DONE ', closed: false, pos: 300 },
    { id: 'l-todo', name: 'To Do', closed: false, pos: 100 },
    { id: 'l-old', name: 'Old stuff', closed: true, pos: 200 },
    { id: 'l-empty', name: 'Nobody here', closed: false, pos: 50 },
  ],
  labels: [
    { id: 'b-bug', name: 'Bug', color: 'red' },
    { id: 'b-green', name: '', color: 'green_dark' },
    { id: 'b-unused', name: 'Unused', color: 'blue' },
  ],
  cards: [
    { id: 'c1', name: ' First done ', idList: 'l-done', pos: 2, closed: false, desc: ' **bold** ', due: '2019-04-26T23:30:00.000Z', idLabels: ['b-bug', 'b-green'] },
    { id: 'c2', name: 'Second done', idList: 'l-done', pos: 1, closed: false, desc: '', due: null, idLabels: [] },
    { id: 'c3', name: 'Todo', idList: 'l-todo', pos: 5, closed: true, desc: '', due: null, idLabels: ['b-bug'] },
    { id: 'c4', name: 'In an old list', idList: 'l-old', pos: 1, closed: false, desc: '', due: null, idLabels: [] },
  ],
  checklists: [
    { id: 'k2', idCard: 'c1', pos: 2, checkItems: [{ id: 'i3', name: 'Third', state: 'incomplete', pos: 1 }] },
    { id: 'k1', idCard: 'c1', pos: 1, checkItems: [{ id: 'i2', name: 'Second', state: 'complete', pos: 2 }, { id: 'i1', name: 'First', state: 'complete', pos: 1 }, { id: 'i0', name: '  ', pos: 0 }] },
    { id: 'k9', idCard: 'gone', pos: 1, checkItems: [{ id: 'i9', name: 'Of a deleted card', pos: 1 }] },
  ],
  actions: [
    { id: 'a2', type: 'commentCard', date: '2019-06-11T08:00:00.000Z', data: { text: 'Later\n\nsecond line', card: { id: 'c1' } }, memberCreator: { fullName: 'Grace' } },
    { id: 'a1', type: 'commentCard', date: '2019-06-10T21:31:37.832Z', data: { text: 'Earlier', card: { id: 'c1' } }, memberCreator: { fullName: 'Ada' } },
    { id: 'a9', type: 'commentCard', date: '2019-06-10T21:31:37.832Z', data: { text: 'On a deleted card', card: { id: 'gone' } }, memberCreator: { fullName: 'Ada' } },
  ],
};

describe('planImport', () => {
  const plan = planImport(readTrelloExport(BOARD), context());
  const byId = new Map(plan.tasks.map((t) => [t.sourceId, t]));

  it('orders cards by list position, then card position', () => {
    expect(plan.tasks.map((t) => t.sourceId)).toEqual(['c3', 'c4', 'c2', 'c1']);
    const positions = plan.tasks.map((t) => t.position);
    expect([...positions].sort()).toEqual(positions);
  });

  it('places the tasks after the project\'s last rank', () => {
    const after = planImport(readTrelloExport(BOARD), context({ lastTaskRank: 'c000' }));
    expect(after.tasks.every((t) => t.position > 'c000')).toBe(true);
  });

  it('keeps titles and descriptions trimmed, archives closed cards and the cards of closed lists', () => {
    expect(byId.get('c1')).toMatchObject({ title: 'First done', description: '**bold**', archived: false });
    expect(byId.get('c3')!.archived).toBe(true);
    expect(byId.get('c4')!.archived).toBe(true);
  });

  it('matches lists to Status options by name (case and spaces ignored); a closed list still becomes an option, its cards archived in it', () => {
    expect(byId.get('c1')!.values.status).toBe('status-2');
    expect(byId.get('c3')!.values.status).toBe('status-0');
    const added = plan.options.filter((o) => o.propertyId === 'status');
    expect(added).toEqual([{ id: expect.any(String), propertyId: 'status', name: 'Old stuff', color: OPTION_COLORS[3], position: expect.any(String) }]);
    expect(byId.get('c4')!.values.status).toBe(added[0].id);
    expect(byId.get('c4')!.archived).toBe(true);
  });

  it('adds a new list\'s option straight after the option of the list before it, so Status keeps Trello\'s list order', () => {
    const board = {
      ...BOARD,
      lists: [
        { id: 'l-ideas', name: 'Ideas', closed: false, pos: 10 },
        { id: 'l-todo', name: 'To Do', closed: false, pos: 100 },
        { id: 'l-review', name: 'Review', closed: false, pos: 150 },
        { id: 'l-qa', name: 'QA', closed: false, pos: 160 },
        { id: 'l-done', name: ' DONE ', closed: false, pos: 300 },
        { id: 'l-later', name: 'Later', closed: false, pos: 400 },
      ],
      cards: ['l-later', 'l-qa', 'l-done', 'l-review', 'l-ideas', 'l-todo'].map((idList, i) => ({ ...BOARD.cards[1], id: `x${i}`, idList })),
    };
    const ordered = planImport(readTrelloExport(board), context());
    const all = [...status().options.map((o) => ({ name: o.name, position: o.position })), ...ordered.options.filter((o) => o.propertyId === 'status')];
    const names = [...all].sort((a, b) => (a.position < b.position ? -1 : 1)).map((o) => o.name);
    // "In progress" is the project's own, used by no list: it stays where it was.
    expect(names).toEqual(['Ideas', 'To do', 'Review', 'QA', 'In progress', 'Done', 'Later']);
    expect(ordered.preview).toMatchObject({ lists: 6, closedLists: 0 });
  });

  it('creates Labels and Due when missing, with the labels the cards use and the UTC day of the due', () => {
    expect(plan.properties.map((p) => [p.name, p.type, p.cardRow])).toEqual([
      ['Labels', 'multi_select', { place: 'footer', mode: 'colour' }],
      ['Due', 'date', { place: 'footer', mode: 'text' }],
    ]);
    expect(plan.properties[0].position > 'a0' && plan.properties[1].position > plan.properties[0].position).toBe(true);
    const [labels, due] = plan.properties;
    const labelOptions = plan.options.filter((o) => o.propertyId === labels.id);
    expect(labelOptions.map((o) => [o.name, o.color])).toEqual([['Bug', '#e0574d'], ['Green dark', '#4f8a5b']]);
    expect(byId.get('c1')!.values[labels.id]).toEqual(labelOptions.map((o) => o.id));
    expect(byId.get('c1')!.values[due.id]).toBe('2019-04-26');
    expect(byId.get('c2')!.values).toEqual({ status: 'status-2' });
  });

  it('reuses the project\'s Labels and Due, matching options by name', () => {
    const labels: ExistingProperty = { id: 'labels', name: ' labels', type: 'multi_select', position: 'a1', options: [{ id: 'bug', name: 'BUG', color: '#000000', position: 'a0' }] };
    const due: ExistingProperty = { id: 'due', name: 'DUE', type: 'date', position: 'a2', options: [] };
    const again = planImport(readTrelloExport(BOARD), context({ properties: [status(), labels, due] }));
    expect(again.properties).toEqual([]);
    expect(again.options.filter((o) => o.propertyId === 'labels').map((o) => o.name)).toEqual(['Green dark']);
    expect(again.tasks.find((t) => t.sourceId === 'c3')!.values.labels).toEqual(['bug']);
    expect(again.tasks.find((t) => t.sourceId === 'c1')!.values.due).toBe('2019-04-26');
  });

  it('creates Status when the project has none, and refuses a property of the name but another type', () => {
    const none = planImport(readTrelloExport(BOARD), context({ properties: [] }));
    expect(none.properties.map((p) => p.name)).toEqual(['Status', 'Labels', 'Due']);
    const wrong: ExistingProperty = { id: 'x', name: 'Labels', type: 'select', position: 'a1', options: [] };
    const e = refusal(() => planImport(readTrelloExport(BOARD), context({ properties: [status(), wrong] })));
    expect([e.code, e.params]).toEqual(['import.property_type', { property: 'Labels', kind: 'a multi-select' }]);
  });

  it('flattens checklists in order with their done state, dropping blank items and those of other cards', () => {
    const id = byId.get('c1')!.id;
    expect(plan.checklist.map((i) => [i.taskId, i.text, i.done])).toEqual([
      [id, 'First', true],
      [id, 'Second', true],
      [id, 'Third', false],
    ]);
    const ranks = plan.checklist.map((i) => i.position);
    expect([...ranks].sort()).toEqual(ranks);
  });

  it('quotes comments oldest first, naming the author and the UTC date', () => {
    expect(plan.comments.map((c) => c.body)).toEqual([
      '**Ada** wrote on Trello, 2019-06-10 21:31 UTC:\n\n> Earlier',
      '**Grace** wrote on Trello, 2019-06-11 08:00 UTC:\n\n> Later\n>\n> second line',
    ]);
  });

  it('counts what the preview shows: the lists the cards use (closed ones too, and apart) and the labels', () => {
    expect(plan.preview).toEqual({ tasks: 2, archived: 2, lists: 3, closedLists: 1, labels: 2, checklistItems: 3, comments: 2, skipped: [] });
  });

  it('skips cards already imported, and writes nothing new for them', () => {
    const imported = new Map([['c1', 7], ['c2', 8], ['c3', 9], ['c4', 10]]);
    const again = planImport(readTrelloExport(BOARD), context({ imported }));
    expect(again.tasks).toEqual([]);
    expect([again.properties, again.options, again.checklist, again.comments]).toEqual([[], [], [], []]);
    expect(again.preview.skipped).toEqual([
      { sourceId: 'c3', reason: 'Already imported as TB-9.' },
      { sourceId: 'c4', reason: 'Already imported as TB-10.' },
      { sourceId: 'c2', reason: 'Already imported as TB-8.' },
      { sourceId: 'c1', reason: 'Already imported as TB-7.' },
    ]);
  });

  it('leaves out a card with an over-long text, saying which', () => {
    const long = (card: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      planImport(readTrelloExport({ ...BOARD, cards: [{ ...BOARD.cards[1], ...card }], ...extra }), context()).preview.skipped;
    expect(long({ name: 'x'.repeat(401) })).toEqual([{ sourceId: 'c2', reason: SKIP_REASONS.longName }]);
    expect(long({ name: '😀'.repeat(400) })).toEqual([]);
    expect(long({ name: '   ' })).toEqual([{ sourceId: 'c2', reason: SKIP_REASONS.noName }]);
    expect(long({ desc: 'd'.repeat(20001) })).toEqual([{ sourceId: 'c2', reason: SKIP_REASONS.longDescription }]);
    expect(long({}, { checklists: [{ id: 'k', idCard: 'c2', checkItems: [{ id: 'i', name: 'c'.repeat(401) }] }] })).toEqual([{ sourceId: 'c2', reason: SKIP_REASONS.longChecklistItem }]);
    const comment = (text: string) => ({ actions: [{ id: 'a', type: 'commentCard', date: '2019-01-01T00:00:00Z', data: { text, card: { id: 'c2' } }, memberCreator: { fullName: 'Ada' } }] });
    expect(long({}, comment('w'.repeat(8000)))).toEqual([{ sourceId: 'c2', reason: SKIP_REASONS.longComment }]);
    expect(long({}, comment('w'.repeat(7900)))).toEqual([]);
    expect(SKIP_REASONS.longName).toContain('refused, not cut');
  });

  it('cuts list and label names to the option name limit', () => {
    const longName = 'L'.repeat(45);
    const cut = planImport(readTrelloExport({ ...BOARD, lists: [{ ...BOARD.lists[0], name: longName }, ...BOARD.lists.slice(1)] }), context());
    expect(cut.options.map((o) => o.name)).toContain('L'.repeat(40));
  });
});

describe('label colours', () => {
  it('maps every Trello colour onto the option palette, shades and unknowns included', () => {
    for (const color of ['green', 'yellow', 'orange', 'red', 'purple', 'blue', 'sky', 'lime', 'pink', 'black', 'green_dark', 'RED_light', null, 'mauve']) {
      expect(OPTION_COLORS as readonly string[]).toContain(labelColor(color));
    }
    expect(new Set(['green', 'yellow', 'orange', 'red', 'purple', 'blue', 'sky', 'lime', 'pink'].map(labelColor)).size).toBe(9);
    expect([labelColor(null), labelColor('black'), labelColor('mauve')]).toEqual(['#8b8f98', '#8b8f98', '#8b8f98']);
  });

  it('gives a colour named like a member of Object.prototype the default colour (imported names are data)', () => {
    for (const color of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__']) {
      expect(labelColor(color)).toBe('#8b8f98');
    }
  });

  it('names an unnamed label by its colour', () => {
    expect([colorName('green'), colorName('sky_light'), colorName(null), colorName('')]).toEqual(['Green', 'Sky light', 'No colour', 'No colour']);
  });
});

describe('text helpers', () => {
  it('cuts by characters, not UTF-16 units', () => {
    expect(cutText('😀'.repeat(41), 40)).toBe('😀'.repeat(40));
    expect(cutText('short', 40)).toBe('short');
  });

  it('quotes every line of a comment', () => {
    expect(quoteComment({ author: 'Ada', date: new Date('2020-01-02T03:04:05Z'), text: 'a\r\nb\n\nc' })).toBe('**Ada** wrote on Trello, 2020-01-02 03:04 UTC:\n\n> a\n> b\n>\n> c');
  });
});
