import { fail } from '@board/kernel';

/**
 * The parts of a Trello board export ("Export as JSON") an import reads, checked and narrowed.
 * Everything else in the export (members, attachments, plugin data, other actions) is ignored.
 */
export interface TrelloList {
  id: string;
  name: string;
  closed: boolean;
  pos: number;
}

export interface TrelloLabel {
  id: string;
  name: string;
  color: string | null;
}

export interface TrelloCard {
  id: string;
  name: string;
  desc: string;
  closed: boolean;
  pos: number;
  idList: string;
  /** The due moment as Trello wrote it (ISO 8601), or null. */
  due: Date | null;
  idLabels: string[];
}

export interface TrelloCheckItem {
  name: string;
  /** `state === 'complete'`. */
  done: boolean;
  pos: number;
}

export interface TrelloChecklist {
  id: string;
  idCard: string;
  pos: number;
  items: TrelloCheckItem[];
}

/** An action of type `commentCard`. */
export interface TrelloComment {
  cardId: string;
  text: string;
  date: Date;
  author: string;
}

export interface TrelloBoard {
  lists: TrelloList[];
  labels: TrelloLabel[];
  cards: TrelloCard[];
  checklists: TrelloChecklist[];
  comments: TrelloComment[];
}

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A field of an entry of the export, read as its own property only: an entry without `name`
 * must not find one on Object.prototype, whatever names the export uses (decisions › Fair use:
 * imported names are data, never code).
 */
const own = (entry: Obj, key: string): unknown => (Object.hasOwn(entry, key) ? entry[key] : undefined);

/** A section of the export that must be a list when present (`cards`, `lists` must be present). */
function section(body: Obj, key: string, required: boolean): unknown[] {
  const value = own(body, key);
  if (value === undefined || value === null) {
    if (required) fail('import.not_trello');
    return [];
  }
  if (!Array.isArray(value)) {
    if (required) fail('import.not_trello');
    fail('import.section', { section: key });
  }
  return value as unknown[];
}

/** Reads one entry's fields, refusing with a sentence that names the entry and the field. */
class Entry {
  readonly id: string;

  constructor(
    private readonly thing: string,
    private readonly raw: unknown,
    index: number,
  ) {
    if (!isObject(raw)) fail('import.entry', { thing, index: index + 1 });
    const id = own(raw as Obj, 'id');
    if (typeof id !== 'string' || id.trim() === '') fail('import.field', { thing, id: `#${index + 1}`, field: 'id', kind: 'text' });
    this.id = id as string;
  }

  private wrong(field: string, kind: string): never {
    return fail('import.field', { thing: this.thing, id: this.id, field, kind });
  }

  text(field: string, fallback?: string): string {
    const v = own(this.raw as Obj, field);
    if ((v === undefined || v === null) && fallback !== undefined) return fallback;
    if (typeof v !== 'string') this.wrong(field, 'text');
    return v as string;
  }

  optionalText(field: string): string | null {
    const v = own(this.raw as Obj, field);
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') this.wrong(field, 'text');
    return v as string;
  }

  flag(field: string): boolean {
    const v = own(this.raw as Obj, field);
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') this.wrong(field, 'true or false');
    return v as boolean;
  }

  /** Trello's `pos`: a finite number; missing counts as 0 (the entry's place in the file breaks ties). */
  pos(): number {
    const v = own(this.raw as Obj, 'pos');
    if (v === undefined || v === null) return 0;
    if (typeof v !== 'number' || !Number.isFinite(v)) this.wrong('pos', 'a number');
    return v as number;
  }

  /** A required date is never null: a missing one is refused like a wrong one. */
  date(field: string, required: true): Date;
  date(field: string, required: false): Date | null;
  date(field: string, required: boolean): Date | null {
    const v = own(this.raw as Obj, field);
    if ((v === undefined || v === null) && !required) return null;
    const date = typeof v === 'string' ? readMoment(v) : null;
    if (!date) this.wrong(field, 'a date');
    return date;
  }

  ids(field: string): string[] {
    const v = own(this.raw as Obj, field);
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) this.wrong(field, 'a list of ids');
    return v as string[];
  }

  list(field: string): unknown[] {
    const v = own(this.raw as Obj, field);
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) this.wrong(field, 'a list');
    return v as unknown[];
  }

  get fields(): Obj {
    return this.raw as Obj;
  }
}

/** An ISO 8601 moment with a year from 1 to 9999 (what a date value can hold), else null. */
function readMoment(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim())) return null;
  const date = new Date(value.trim());
  if (Number.isNaN(date.getTime())) return null;
  const year = date.getUTCFullYear();
  return year >= 1 && year <= 9999 ? date : null;
}

function noTwice(thing: string, ids: string[]): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) fail('import.duplicate', { thing, id });
    seen.add(id);
  }
}

/**
 * Reads a request body as a Trello board export. A body that is not one at all (`{}`, `[]`, a
 * string, no `cards` or `lists`) is "That is not a Trello board export."; an export with a wrong
 * field or a card in a list it does not hold is refused with a sentence naming the entry.
 */
export function readTrelloExport(body: unknown): TrelloBoard {
  if (!isObject(body)) return fail('import.not_trello');
  const rawLists = section(body, 'lists', true);
  const rawCards = section(body, 'cards', true);
  const rawLabels = section(body, 'labels', false);
  const rawChecklists = section(body, 'checklists', false);
  const rawActions = section(body, 'actions', false);

  const lists = rawLists.map((raw, i): TrelloList => {
    const e = new Entry('List', raw, i);
    return { id: e.id, name: e.text('name'), closed: e.flag('closed'), pos: e.pos() };
  });
  noTwice('List', lists.map((l) => l.id));

  const labels = rawLabels.map((raw, i): TrelloLabel => {
    const e = new Entry('Label', raw, i);
    return { id: e.id, name: e.text('name', ''), color: e.optionalText('color') };
  });
  noTwice('Label', labels.map((l) => l.id));

  const listIds = new Set(lists.map((l) => l.id));
  const labelIds = new Set(labels.map((l) => l.id));
  const cards = rawCards.map((raw, i): TrelloCard => {
    const e = new Entry('Card', raw, i);
    const idList = e.text('idList');
    if (!listIds.has(idList)) fail('import.unknown_list', { card: e.id, list: idList });
    const idLabels = [...new Set(e.ids('idLabels'))];
    const unknown = idLabels.find((id) => !labelIds.has(id));
    if (unknown !== undefined) fail('import.unknown_label', { card: e.id, label: unknown });
    return {
      id: e.id,
      name: e.text('name'),
      desc: e.text('desc', ''),
      closed: e.flag('closed'),
      pos: e.pos(),
      idList,
      due: e.date('due', false),
      idLabels,
    };
  });
  noTwice('Card', cards.map((c) => c.id));

  const checklists = rawChecklists.map((raw, i): TrelloChecklist => {
    const e = new Entry('Checklist', raw, i);
    const items = e.list('checkItems').map((rawItem, j): TrelloCheckItem => {
      const item = new Entry('Checklist item', rawItem, j);
      const state = item.text('state', 'incomplete');
      return { name: item.text('name'), done: state === 'complete', pos: item.pos() };
    });
    return { id: e.id, idCard: e.text('idCard'), pos: e.pos(), items };
  });

  const comments: TrelloComment[] = [];
  rawActions.forEach((raw, i) => {
    // Only comments are read; every other action (moves, edits, members) is history the board does not keep.
    if (!isObject(raw) || own(raw, 'type') !== 'commentCard') return;
    const e = new Entry('Action', raw, i);
    const data = own(e.fields, 'data');
    if (!isObject(data)) return fail('import.field', { thing: 'Action', id: e.id, field: 'data', kind: 'an object' });
    const card = own(data, 'card');
    const cardId = isObject(card) ? own(card, 'id') : undefined;
    if (typeof cardId !== 'string') return fail('import.field', { thing: 'Action', id: e.id, field: 'data.card.id', kind: 'text' });
    const text = own(data, 'text');
    if (typeof text !== 'string') return fail('import.field', { thing: 'Action', id: e.id, field: 'data.text', kind: 'text' });
    const creator = own(e.fields, 'memberCreator');
    const author = isObject(creator) ? nameOf(creator) : null;
    comments.push({ cardId, text, date: e.date('date', true), author: author ?? 'Someone' });
  });

  return { lists, labels, cards, checklists, comments };
}

function nameOf(member: Obj): string | null {
  for (const key of ['fullName', 'username']) {
    const v = own(member, key);
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return null;
}
