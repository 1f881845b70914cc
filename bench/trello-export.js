'use strict';
/**
 * Builds Trello board exports of the shape of a real "Export as JSON" (see
 * ../shared/fixtures/trello-board.json): lists with `pos` and `closed`, labels (some unnamed),
 * cards with `idList`, `closed`, `pos`, `due`, `idLabels`, `idChecklists`, `labels`, checklists with
 * `checkItems`, and actions of type `commentCard` among others. Deterministic for a seed, so the
 * e2e tests (scale, fixed statement count) and `npm run bench` import the same boards.
 */

/** mulberry32: small, deterministic pseudo-random numbers. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'deploy review parser cache webhook retry stream board column filter sprint release agent lease checklist ' +
  'import export search archive restore migration index query latency budget owner member invite token ' +
  'schema backup report upload preview mobile layout colour avatar feed cursor timeout pool worker'
).split(' ');
const COLORS = ['green', 'yellow', 'orange', 'red', 'purple', 'blue', 'sky', 'lime', 'pink', 'black'];

/** A Trello-like id: 24 hex digits, unique within one export (and across seeds, by prefix). */
const trelloId = (prefix, n) => (prefix + n.toString(16)).padStart(24, '0').slice(-24);

/**
 * An export of `cards` cards over `lists` lists (the last one closed), `labels` labels; each card
 * has `checklistItems` items in one checklist and `comments` comments. `closedEvery`: every n-th
 * card is closed. `seed` changes the ids and words (two seeds never share a card id).
 */
function generateTrelloExport(options = {}) {
  const { cards = 100, lists = 6, labels = 8, checklistItems = 3, comments = 2, closedEvery = 5, seed = 1 } = options;
  const rand = prng(seed);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const prefix = `5c${seed.toString(16)}f`;
  const boardId = trelloId(prefix + 'b', 0);

  const listRows = Array.from({ length: lists }, (_, i) => ({
    id: trelloId(prefix + 'a', i),
    name: i === 0 ? 'To Do' : i === 1 ? 'In Progress' : i === 2 ? 'Done' : `Column ${i}`,
    closed: lists > 3 && i === lists - 1,
    idBoard: boardId,
    pos: 16384 * (i + 1),
    subscribed: false,
    softLimit: null,
  }));
  const labelRows = Array.from({ length: labels }, (_, i) => ({
    id: trelloId(prefix + 'c', i),
    idBoard: boardId,
    // Every fourth label is unnamed: it takes its colour's name on import.
    name: i % 4 === 3 ? '' : `Label ${i}`,
    color: COLORS[i % COLORS.length],
  }));

  const cardRows = [];
  const checklistRows = [];
  const actions = [];
  const start = Date.UTC(2019, 3, 1);
  for (let n = 0; n < cards; n++) {
    const id = trelloId(prefix + 'd', n);
    const list = listRows[n % lists];
    const cardLabels = labels > 0 && n % 3 !== 0 ? [labelRows[n % labels], labelRows[(n * 7 + 1) % labels]] : [];
    const uniqueLabels = [...new Map(cardLabels.map((l) => [l.id, l])).values()];
    const checklistId = trelloId(prefix + 'e', n);
    const hasChecklist = checklistItems > 0;
    cardRows.push({
      id,
      address: null,
      closed: closedEvery > 0 && n % closedEvery === closedEvery - 1,
      dateLastActivity: new Date(start + n * 60_000).toISOString(),
      desc: n % 2 === 0 ? `## ${words(3)}\n\n${words(30)}\n\n- ${words(4)}\n- ${words(4)}` : '',
      descData: null,
      due: n % 4 === 0 ? new Date(start + n * 3_600_000).toISOString() : null,
      dueComplete: false,
      idBoard: boardId,
      idChecklists: hasChecklist ? [checklistId] : [],
      idLabels: uniqueLabels.map((l) => l.id),
      idList: list.id,
      idMembers: [],
      idShort: n + 1,
      labels: uniqueLabels,
      name: `${words(2 + (n % 5))} ${n + 1}`,
      // Positions fall as the cards go on within a list, so the file order is not the board order.
      pos: 65536 - Math.floor(n / lists) * 16,
      shortLink: id.slice(-8),
      attachments: [],
      pluginData: [],
      customFieldItems: [],
    });
    if (hasChecklist) {
      checklistRows.push({
        id: checklistId,
        name: 'Checklist',
        idBoard: boardId,
        idCard: id,
        pos: 16384,
        checkItems: Array.from({ length: checklistItems }, (_, j) => ({
          idChecklist: checklistId,
          state: j % 2 === 0 ? 'complete' : 'incomplete',
          id: trelloId(prefix + 'f', n * 100 + j),
          name: `${words(4)} ${j + 1}`,
          nameData: null,
          pos: 16384 * (j + 1),
        })),
      });
    }
    for (let k = 0; k < comments; k++) {
      actions.push({
        id: trelloId(prefix + '1', n * 100 + k),
        idMemberCreator: trelloId(prefix + '2', k),
        data: { text: `${words(12)}\n\n${words(6)}`, card: { id, name: cardRows[n].name, idShort: n + 1 }, board: { id: boardId }, list: { id: list.id, name: list.name } },
        type: 'commentCard',
        date: new Date(start + n * 60_000 + k * 1000).toISOString(),
        memberCreator: { id: trelloId(prefix + '2', k), fullName: k % 2 === 0 ? 'Ada Lovelace' : 'Grace Hopper', username: k % 2 === 0 ? 'ada' : 'grace' },
      });
    }
    actions.push({ id: trelloId(prefix + '3', n), idMemberCreator: trelloId(prefix + '2', 0), data: { card: { id } }, type: 'updateCard', date: new Date(start).toISOString() });
  }
  // Trello lists actions newest first.
  actions.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  return {
    id: boardId,
    name: `Generated board ${seed}`,
    desc: '',
    closed: false,
    prefs: {},
    labelNames: {},
    actions,
    cards: cardRows,
    labels: labelRows,
    lists: listRows,
    members: [],
    checklists: checklistRows,
    customFields: [],
  };
}

module.exports = { generateTrelloExport, prng };
