import { brokenInvariant, charLength, fail, rankBetween, ranksAfter } from '@board/kernel';
import { cardStart, nextOptionColor, OPTION_NAME_MAX, optionKey } from '@board/properties';
import { CHECKLIST_TEXT_MAX, COMMENT_BODY_MAX, DESCRIPTION_MAX, TITLE_MAX } from '@board/tasks';
import { colorName, labelColor } from './label-colors';
import { TrelloBoard, TrelloCard, TrelloComment } from './trello-export';

/** What the project holds that an import maps onto, read under the project lock. */
export interface ImportContext {
  projectKey: string;
  /** Every property of the project, with the options of each. */
  properties: ExistingProperty[];
  /** The project's last task rank (deleted tasks too: they keep their place for a restore). */
  lastTaskRank: string | null;
  /** Cards of this export already imported into the project: source id → task number. */
  imported: ReadonlyMap<string, number>;
  newId: () => string;
}

export interface ExistingProperty {
  id: string;
  name: string;
  type: string;
  position: string;
  options: { id: string; name: string; color: string; position: string }[];
}

export interface Skipped {
  sourceId: string;
  reason: string;
}

export interface ImportPreview {
  tasks: number;
  archived: number;
  /** Lists the cards use, closed ones too: each is a Status option (matched by name, else added). */
  lists: number;
  /** Of those, the closed lists: their cards come in archived (decisions.md › Import). */
  closedLists: number;
  labels: number;
  checklistItems: number;
  comments: number;
  skipped: Skipped[];
}

export interface NewProperty {
  id: string;
  name: string;
  type: 'select' | 'multi_select' | 'date';
  position: string;
  cardRow: { place: string; mode: string };
}

export interface NewOption {
  id: string;
  propertyId: string;
  name: string;
  color: string;
  position: string;
}

export interface PlannedTask {
  id: string;
  sourceId: string;
  title: string;
  description: string;
  position: string;
  values: Record<string, unknown>;
  archived: boolean;
}

export interface PlannedChecklistItem {
  taskId: string;
  text: string;
  done: boolean;
  position: string;
}

export interface PlannedComment {
  taskId: string;
  body: string;
}

/** Everything one import writes, in order: rows are already ranked, numbered by their order. */
export interface ImportPlan {
  preview: ImportPreview;
  properties: NewProperty[];
  options: NewOption[];
  tasks: PlannedTask[];
  checklist: PlannedChecklistItem[];
  comments: PlannedComment[];
}

/** The three properties an import fills, by name (case and surrounding spaces ignored). */
export const IMPORT_PROPERTIES = {
  status: { name: 'Status', type: 'select' },
  labels: { name: 'Labels', type: 'multi_select' },
  due: { name: 'Due', type: 'date' },
} as const;

/**
 * Why a card is left out. Over-long texts are refused, not cut, as every other write refuses
 * them: the card stays out and can come in with a later run once shortened in Trello.
 */
export const SKIP_REASONS = {
  imported: (key: string) => `Already imported as ${key}.`,
  noName: 'The card has no name, so it is left out.',
  longName: `The card name is longer than ${TITLE_MAX} characters, so the card is left out (names are refused, not cut). Shorten it in Trello and import again.`,
  longDescription: `The card description is longer than ${DESCRIPTION_MAX} characters, so the card is left out. Shorten it in Trello and import again.`,
  longChecklistItem: `A checklist item of the card is longer than ${CHECKLIST_TEXT_MAX} characters, so the card is left out. Shorten it in Trello and import again.`,
  longComment: `A comment on the card is longer than ${COMMENT_BODY_MAX} characters once quoted, so the card is left out.`,
};

/** The first `max` characters (code points), trimmed again. */
export const cutText = (text: string, max: number): string => (charLength(text) <= max ? text : [...text].slice(0, max).join('').trim());

/** A comment as the importer writes it: who wrote it on Trello and when (UTC), then their words quoted. */
export function quoteComment(comment: Pick<TrelloComment, 'author' | 'date' | 'text'>): string {
  const when = comment.date.toISOString().slice(0, 16).replace('T', ' ');
  const quoted = comment.text
    .trim()
    .split(/\r?\n/)
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
  return `**${comment.author}** wrote on Trello, ${when} UTC:\n\n${quoted}`;
}

/** The UTC date part of a due moment, as a date value holds it. */
export const dueDay = (due: Date): string => due.toISOString().slice(0, 10);

/**
 * Maps a Trello board onto the project: which cards come in (and why others do not), the
 * options and properties they need, and every row to write. Pure: the same board and context
 * give the same plan, so the preview is the import without the writing.
 */
export function planImport(board: TrelloBoard, ctx: ImportContext): ImportPlan {
  const listsInOrder = [...board.lists].map((l, i) => [l, i] as const).sort(([a, i], [b, j]) => a.pos - b.pos || i - j).map(([l]) => l);
  const listOrder = new Map(listsInOrder.map((l, rank) => [l.id, rank]));
  const lists = new Map(board.lists.map((l) => [l.id, l]));
  // readTrelloExport refuses a card on a list the export does not hold.
  const listOf = (card: TrelloCard) => lists.get(card.idList) ?? brokenInvariant('a card\'s list is in the export');
  const rankOf = (card: TrelloCard) => listOrder.get(card.idList) ?? brokenInvariant('a card\'s list is in the export');

  // Card order kept within and across lists: list position, then card position, then the file.
  const ordered = board.cards
    .map((card, index) => ({ card, index }))
    .sort((a, b) => rankOf(a.card) - rankOf(b.card) || a.card.pos - b.card.pos || a.index - b.index)
    .map((x) => x.card);

  const checklistsOf = groupBy(
    [...board.checklists].map((c, i) => ({ c, i })).sort((a, b) => a.c.pos - b.c.pos || a.i - b.i).map((x) => x.c),
    (c) => c.idCard,
  );
  const commentsOf = groupBy(
    [...board.comments].map((c, i) => ({ c, i })).sort((a, b) => a.c.date.getTime() - b.c.date.getTime() || b.i - a.i).map((x) => x.c),
    (c) => c.cardId,
  );

  const skipped: Skipped[] = [];
  const taking: { card: TrelloCard; title: string; description: string; items: { text: string; done: boolean }[]; comments: string[] }[] = [];
  for (const card of ordered) {
    const number = ctx.imported.get(card.id);
    if (number !== undefined) {
      skipped.push({ sourceId: card.id, reason: SKIP_REASONS.imported(`${ctx.projectKey}-${number}`) });
      continue;
    }
    const title = card.name.trim();
    const description = card.desc.trim();
    const items = (checklistsOf.get(card.id) ?? [])
      .flatMap((list) => [...list.items].map((item, i) => ({ item, i })).sort((a, b) => a.item.pos - b.item.pos || a.i - b.i))
      .map(({ item }) => ({ text: item.name.trim(), done: item.done }))
      .filter((item) => item.text !== '');
    const comments = (commentsOf.get(card.id) ?? []).filter((c) => c.text.trim() !== '').map(quoteComment);
    const reason =
      title === '' ? SKIP_REASONS.noName
      : charLength(title) > TITLE_MAX ? SKIP_REASONS.longName
      : charLength(description) > DESCRIPTION_MAX ? SKIP_REASONS.longDescription
      : items.some((i) => charLength(i.text) > CHECKLIST_TEXT_MAX) ? SKIP_REASONS.longChecklistItem
      : comments.some((c) => charLength(c) > COMMENT_BODY_MAX) ? SKIP_REASONS.longComment
      : null;
    if (reason) skipped.push({ sourceId: card.id, reason });
    else taking.push({ card, title, description, items, comments });
  }

  // Properties and options, only for what the cards that come in use.
  const properties: NewProperty[] = [];
  const options: NewOption[] = [];
  let lastPropertyRank = ctx.properties.reduce<string | null>((max, p) => (max === null || p.position > max ? p.position : max), null);
  const propertyFor = (which: keyof typeof IMPORT_PROPERTIES): OptionSet => {
    const { name, type } = IMPORT_PROPERTIES[which];
    const found = ctx.properties.find((p) => optionKey(p.name) === optionKey(name));
    if (found) {
      if (found.type !== type) throwWrongType(found.name, type);
      return new OptionSet(found.id, found.options, options, ctx.newId);
    }
    const [position] = ranksAfter(lastPropertyRank, 1);
    lastPropertyRank = position;
    const created: NewProperty = { id: ctx.newId(), name, type, position, cardRow: cardStart(type) };
    properties.push(created);
    return new OptionSet(created.id, [], options, ctx.newId);
  };

  // A card in a closed list comes in archived, and its list still becomes a Status option, as
  // decided (decisions.md › Import): its cards keep the list they were in.
  const usedLists = new Set<string>();
  const closedLists = new Set<string>();
  const usedLabels = new Set<string>();
  for (const { card } of taking) {
    usedLists.add(card.idList);
    if (listOf(card).closed) closedLists.add(card.idList);
    for (const id of card.idLabels) usedLabels.add(id);
  }
  const status = usedLists.size > 0 ? propertyFor('status') : null;
  const labelSet = usedLabels.size > 0 ? propertyFor('labels') : null;
  const due = taking.some((t) => t.card.due !== null) ? propertyFor('due') : null;

  // Options in the board's order: lists by position — a new one goes straight after the option of
  // the list before it, so Status reads as the Trello board does around the options it already has
  // — and labels as the export lists them. Without the property nothing is used (no card comes in,
  // or none has a label), so there is no option to make.
  const statusOption = new Map<string, string>();
  if (status) {
    let previous: string | null = null;
    for (const list of listsInOrder) {
      if (!usedLists.has(list.id)) continue;
      const option = status.optionAfter(optionName(list.name, 'List'), previous);
      statusOption.set(list.id, option.id);
      previous = option.position;
    }
  }
  const labelOption = new Map<string, string>();
  if (labelSet) {
    for (const label of board.labels) {
      if (!usedLabels.has(label.id)) continue;
      const name = label.name.trim() === '' ? colorName(label.color) : optionName(label.name, 'Label');
      labelOption.set(label.id, labelSet.optionFor(name, labelColor(label.color)));
    }
  }
  // A card that comes in has the status property; one with labels or a due day, those too.
  const made = (set: OptionSet | null): OptionSet => set ?? brokenInvariant('a property the cards that come in use was made');

  const ranks = ranksAfter(ctx.lastTaskRank, taking.length);
  const tasks: PlannedTask[] = [];
  const checklist: PlannedChecklistItem[] = [];
  const comments: PlannedComment[] = [];
  taking.forEach((t, i) => {
    const list = listOf(t.card);
    const values: Record<string, unknown> = { [made(status).propertyId]: statusOption.get(list.id) };
    // readTrelloExport refuses a card with a label the export does not hold.
    const labelIds = [...new Set(t.card.idLabels.map((id) => labelOption.get(id) ?? brokenInvariant('a card\'s label is in the export')))];
    if (labelIds.length > 0) values[made(labelSet).propertyId] = labelIds;
    if (t.card.due) values[made(due).propertyId] = dueDay(t.card.due);
    const id = ctx.newId();
    tasks.push({ id, sourceId: t.card.id, title: t.title, description: t.description, position: ranks[i], values, archived: t.card.closed || list.closed });
    const itemRanks = ranksAfter(null, t.items.length);
    t.items.forEach((item, j) => checklist.push({ taskId: id, text: item.text, done: item.done, position: itemRanks[j] }));
    for (const body of t.comments) comments.push({ taskId: id, body });
  });

  return {
    preview: {
      tasks: tasks.filter((t) => !t.archived).length,
      archived: tasks.filter((t) => t.archived).length,
      lists: usedLists.size,
      closedLists: closedLists.size,
      labels: usedLabels.size,
      checklistItems: checklist.length,
      comments: comments.length,
      skipped,
    },
    properties,
    options,
    tasks,
    checklist,
    comments,
  };
}

/** A list or label name as an option name: trimmed and cut to the option name limit. */
function optionName(name: string, fallback: string): string {
  const cut = cutText(name.trim(), OPTION_NAME_MAX);
  return cut === '' ? fallback : cut;
}

/** The options of one property: found by name, else added (last, in the next palette colour unless given one). */
class OptionSet {
  private readonly byKey = new Map<string, string>();
  private readonly positions = new Map<string, string>();
  private readonly colors: string[];
  private last: string | null;

  constructor(
    readonly propertyId: string,
    existing: ExistingProperty['options'],
    private readonly added: NewOption[],
    private readonly newId: () => string,
  ) {
    for (const o of existing) {
      this.byKey.set(optionKey(o.name), o.id);
      this.positions.set(o.id, o.position);
    }
    this.colors = existing.map((o) => o.color);
    this.last = existing.reduce<string | null>((max, o) => (max === null || o.position > max ? o.position : max), null);
  }

  /**
   * The option of that name; a new one goes after `previous` (a position; null: first) and before
   * the next option there, so the options keep the order they are asked for in.
   */
  optionAfter(name: string, previous: string | null): { id: string; position: string } {
    const known = this.byKey.get(optionKey(name));
    if (known) return { id: known, position: this.positions.get(known) ?? brokenInvariant('a known option has a position') };
    const next = [...this.positions.values()].filter((p) => previous === null || p > previous).reduce<string | null>((min, p) => (min === null || p < min ? p : min), null);
    return this.add(name, null, rankBetween(previous, next));
  }

  optionFor(name: string, color: string | null): string {
    const known = this.byKey.get(optionKey(name));
    if (known) return known;
    const [position] = ranksAfter(this.last, 1);
    return this.add(name, color, position).id;
  }

  private add(name: string, color: string | null, position: string): NewOption {
    const option: NewOption = { id: this.newId(), propertyId: this.propertyId, name, color: color ?? nextOptionColor(this.colors), position };
    if (this.last === null || position > this.last) this.last = position;
    this.colors.push(option.color);
    this.byKey.set(optionKey(name), option.id);
    this.positions.set(option.id, position);
    this.added.push(option);
    return option;
  }
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

const TYPE_WORDS: Record<string, string> = { select: 'a select', multi_select: 'a multi-select', date: 'a date' };

/** A property of the import's name with another type: the import cannot put its values there. */
const throwWrongType = (property: string, type: string): never => fail('import.property_type', { property, kind: TYPE_WORDS[type] ?? type });
