import { fail, isValidRank, ranksAfter } from '@board/kernel';
import { isEmptyValue, normalizeValue, PropertyDef, PROPERTY_TYPES } from '@board/properties';
import { BoardExport } from './board-export';

type Json = Record<string, unknown>;

/** What the target project holds that the plan maps onto. */
export interface BoardExportContext {
  /** The new project's members: a person of the export is matched by email among them. */
  members: { id: string; email: string | null }[];
  importerId: string;
  now: Date;
  newId: () => string;
}

/**
 * An export's rows with new ids, ready to write: every id the export holds (properties, options,
 * views, tasks, checklist items, comments, runs, feed lines) is replaced, and every reference to
 * one (values, filters, card view, parents, blockers, feed data) follows it.
 */
export interface BoardExportPlan {
  project: { doneWhen: unknown; releases: boolean; sprints: boolean; cardView: unknown; rulesText: string; rulesUpdatedAt: string | null };
  properties: { id: string; name: string; type: string; position: string; config: unknown }[];
  options: { id: string; propertyId: string; name: string; color: string; position: string; startsOn: unknown; targetOn: unknown; note: unknown; shippedAt: unknown }[];
  views: { id: string; name: string; kind: string; groupById: string | null; position: string; isDefault: boolean; filters: unknown; sort: unknown; cardView: unknown }[];
  tasks: {
    id: string; sourceId: string; number: number; title: string; description: string; position: string; values: Json; parentId: string | null;
    createdBy: string | null; createdAt: string; updatedAt: string; archivedAt: string | null; deletedAt: string | null;
  }[];
  links: { taskId: string; blockerId: string }[];
  /** Which release shipped which task (`ship_tasks`): its option and the ship it went out in. */
  shipped: { taskId: string; optionId: string; shipId: string }[];
  checklist: { id: string; taskId: string; text: string; done: boolean; position: string; createdAt: string }[];
  comments: { id: string; taskId: string; authorId: string | null; body: string; createdAt: string; editedAt: string | null }[];
  runs: {
    id: string; taskId: string; agentId: string | null; status: string; goal: string; step: string; steps: unknown; stepIndex: number | null;
    log: unknown; question: unknown; links: unknown; model: string | null; inputTokens: string; outputTokens: string; costMicros: string;
    startedAt: string; updatedAt: string; endedAt: string;
  }[];
  usageDays: { runId: string; day: string; agentId: string | null; inputTokens: string; outputTokens: string; costMicros: string }[];
  /**
   * The export's feed lines, restored as history with the times they were written: rows of the
   * project's past, not events of this write (they ring nothing and notify nobody). The import's
   * own `import` lines are the caller's declared events, written by the unit of work.
   */
  history: { id: string; taskId: string | null; actorId: string | null; kind: string; data: unknown; createdAt: string }[];
  /** Tasks not in the bin: the project's count. */
  liveCount: number;
  lastNumber: number;
}

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const COUNT = /^\d{1,16}$/;
const VIEW_KINDS = ['board', 'list', 'roadmap'];
const NUMBER_MAX = 2 ** 31 - 1;

/**
 * The checks of what PostgreSQL would refuse with a 500 (a time, a day, a count, a task number
 * past its column, a view kind), each as the Trello import's field sentence: a bad document is a
 * clear 400 before anything is written.
 */
function field(thing: string, id: unknown, name: string, kind: string): never {
  return fail('import.field', { thing, id: String(id), field: name, kind });
}
function timestamp(thing: string, id: unknown, name: string, v: unknown, fallback: string): string {
  if (v === undefined) return fallback;
  return typeof v === 'string' && TIMESTAMP.test(v) && !Number.isNaN(Date.parse(v)) ? v : field(thing, id, name, 'a time (ISO 8601)');
}
function maybeTimestamp(thing: string, id: unknown, name: string, v: unknown): string | null {
  return v === null || v === undefined ? null : timestamp(thing, id, name, v, '');
}
function day(thing: string, id: unknown, name: string, v: unknown): string | null {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' && DAY.test(v) && !Number.isNaN(Date.parse(v)) ? v : field(thing, id, name, 'a day (YYYY-MM-DD)');
}
function count(thing: string, id: unknown, name: string, v: unknown): string {
  if (v === undefined || v === null) return '0';
  return typeof v === 'string' && COUNT.test(v) ? v : field(thing, id, name, 'a whole number of at most 16 digits, as text');
}
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Every string (and object key) that is an old id becomes its new one, anywhere in the value. */
export function remapIds(value: unknown, ids: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return ids.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => remapIds(v, ids));
  if (typeof value === 'object' && value !== null) {
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) out[ids.get(k) ?? k] = remapIds(v, ids);
    return out;
  }
  return value;
}

/** A comment whose author is not among the new project's members: the importer's, naming the author (as the Trello import does). */
export function quoteUnmatched(name: string, body: string): string {
  return `**${name}** wrote:\n\n${body.split('\n').map((line) => `> ${line}`).join('\n')}`;
}

/**
 * A project's ranks are distinct and valid keys (a move reads its neighbours' ranks; the rank index
 * is unique). An export this service wrote has such ranks and keeps them; one that does not (edited
 * by hand, or written elsewhere) is ranked afresh in the order it reads: by rank, then file order.
 */
function rankAfresh(tasks: BoardExportPlan['tasks']): void {
  if (tasks.every((t) => isValidRank(t.position)) && new Set(tasks.map((t) => t.position)).size === tasks.length) return;
  const order = tasks.map((t, i) => ({ t, i })).sort((a, b) => (a.t.position < b.t.position ? -1 : a.t.position > b.t.position ? 1 : a.i - b.i));
  const ranks = ranksAfter(null, tasks.length);
  order.forEach(({ t }, k) => (t.position = ranks[k]));
}

export function planBoardExport(doc: BoardExport, context: BoardExportContext): BoardExportPlan {
  const ids = new Map<string, string>();
  const renew = (old: unknown): string => {
    const id = context.newId();
    ids.set(str(old), id);
    return id;
  };
  // People: by email among the new project's members; the unmatched are left out of ids.
  const byEmail = new Map(context.members.filter((m) => m.email).map((m) => [m.email!.toLowerCase(), m.id]));
  const people = new Map<string, string>();
  for (const m of doc.project.members) {
    const match = typeof m.email === 'string' ? byEmail.get(m.email.toLowerCase()) : undefined;
    if (match && typeof m.id === 'string') people.set(m.id, match);
  }
  const person = (id: unknown): string | null => (typeof id === 'string' ? (people.get(id) ?? null) : null);

  const types = new Map<string, string>();
  /** By the export's property id, as the value validator reads them (new ids, new option ids). */
  const defs = new Map<string, PropertyDef>();
  const properties: BoardExportPlan['properties'] = [];
  const options: BoardExportPlan['options'] = [];
  for (const p of doc.properties) {
    const id = renew(p.id);
    if (!(PROPERTY_TYPES as readonly unknown[]).includes(p.type)) field('Property', p.id, 'type', `one of: ${PROPERTY_TYPES.join(', ')}`);
    types.set(p.id as string, str(p.type));
    properties.push({ id, name: str(p.name), type: str(p.type), position: str(p.position), config: p.config ?? {} });
    if (!Array.isArray(p.options)) fail('import.field', { thing: 'Property', id: String(p.id), field: 'options', kind: 'a list' });
    const optionIds = new Set<string>();
    defs.set(p.id as string, { id, name: str(p.name), type: str(p.type), position: str(p.position), config: {} as PropertyDef['config'], optionIds });
    for (const o of p.options as Json[]) {
      const optionId = renew(o.id);
      optionIds.add(optionId);
      options.push({
        id: optionId, propertyId: id, name: str(o.name), color: str(o.color, 'gray'), position: str(o.position),
        startsOn: day('Option', o.id, 'startsOn', o.startsOn), targetOn: day('Option', o.id, 'targetOn', o.targetOn), note: strOrNull(o.note),
        shippedAt: day('Option', o.id, 'shippedAt', o.shippedAt),
      });
    }
  }
  for (const v of doc.views) renew(v.id);
  for (const t of doc.tasks) renew(t.id);
  for (const r of doc.runs) renew(r.id);
  // People go into the map last: a reference to a matched person follows them in filters and feed data.
  for (const [old, id] of people) ids.set(old, id);

  const known = (thing: string, id: unknown, field: string, ref: unknown): string | null => {
    if (ref === null || ref === undefined) return null;
    const mapped = typeof ref === 'string' ? ids.get(ref) : undefined;
    return mapped ?? fail('import.export_reference', { thing, id: String(id), field, ref: String(ref) });
  };

  const views = doc.views.map((v) => ({
    id: ids.get(v.id as string)!, name: str(v.name),
    kind: v.kind === undefined ? 'board' : VIEW_KINDS.includes(v.kind as string) ? (v.kind as string) : field('View', v.id, 'kind', 'board, list or roadmap'), groupById: known('View', v.id, 'groupById', v.groupById),
    position: str(v.position), isDefault: v.isDefault === true, filters: remapIds(v.filters ?? { rules: [] }, ids),
    sort: remapIds(v.sort ?? null, ids), cardView: remapIds(v.cardView ?? null, ids),
  }));

  const values = (task: Json): Json => {
    const out: Json = {};
    if (typeof task.values !== 'object' || task.values === null) return out;
    for (const [propertyId, value] of Object.entries(task.values as Json)) {
      const id = ids.get(propertyId);
      const type = types.get(propertyId);
      if (!id || !type) continue;
      const def = defs.get(propertyId)!;
      if (type === 'person') {
        const who = person(value);
        if (who) out[id] = who;
        continue;
      }
      // Options follow their new ids; one the export does not hold is left out, as a removed option reads as none.
      const mapped = type === 'select' || type === 'iteration' ? (ids.get(str(value)) ?? null)
        : type === 'multi_select' && Array.isArray(value) ? value.map((v) => ids.get(str(v))).filter((v) => v && def.optionIds.has(v))
        : value;
      // The validator of every value write: a value of the wrong kind is the 400 a write of it would get.
      const stored = normalizeValue(def, mapped, { memberIds: new Set() });
      if (!isEmptyValue(stored)) out[id] = stored;
    }
    return out;
  };

  const plan: BoardExportPlan = {
    project: {
      doneWhen: remapIds(doc.project.doneWhen ?? null, ids), releases: doc.project.releases === true, sprints: doc.project.sprints === true,
      cardView: remapIds(doc.cardView, ids), rulesText: str(doc.rules.text), rulesUpdatedAt: maybeTimestamp('Rules', 'text', 'updatedAt', doc.rules.updatedAt),
    },
    properties, options, views,
    tasks: [], links: [], shipped: [], checklist: [], comments: [], runs: [], usageDays: [], history: [],
    liveCount: 0, lastNumber: 0,
  };
  const now = context.now.toISOString();
  for (const t of doc.tasks) {
    const id = ids.get(t.id as string)!;
    const number = t.number === undefined ? plan.lastNumber + 1 : Number.isInteger(t.number) && (t.number as number) > 0 && (t.number as number) <= NUMBER_MAX
      ? (t.number as number) : field('Task', t.id, 'number', `a whole number from 1 to ${NUMBER_MAX}`);
    plan.lastNumber = Math.max(plan.lastNumber, number);
    if (t.deletedAt == null) plan.liveCount++;
    plan.tasks.push({
      id, sourceId: t.id as string, number, title: str(t.title), description: str(t.description), position: str(t.position), values: values(t),
      parentId: known('Task', t.id, 'parentId', t.parentId), createdBy: person(t.createdBy), createdAt: timestamp('Task', t.id, 'createdAt', t.createdAt, now),
      updatedAt: timestamp('Task', t.id, 'updatedAt', t.updatedAt, now), archivedAt: maybeTimestamp('Task', t.id, 'archivedAt', t.archivedAt),
      deletedAt: maybeTimestamp('Task', t.id, 'deletedAt', t.deletedAt),
    });
    for (const b of new Set(Array.isArray(t.blockers) ? t.blockers : [])) plan.links.push({ taskId: id, blockerId: known('Task', t.id, 'blockers', b)! });
    for (const x of Array.isArray(t.shipped) ? (t.shipped as Json[]) : []) {
      const shipId = ids.get(str(x.shipId)) ?? (typeof x.shipId === 'string' ? renew(x.shipId) : field('Task', t.id, 'shipped', 'a list of { optionId, shipId }'));
      plan.shipped.push({ taskId: id, optionId: known('Task', t.id, 'shipped', x.optionId) ?? field('Task', t.id, 'shipped', 'a list of { optionId, shipId }'), shipId });
    }
    for (const c of Array.isArray(t.checklist) ? (t.checklist as Json[]) : []) {
      plan.checklist.push({ id: context.newId(), taskId: id, text: str(c.text), done: c.done === true, position: str(c.position), createdAt: timestamp('Task', t.id, 'checklist createdAt', c.createdAt, now) });
    }
    for (const c of Array.isArray(t.comments) ? (t.comments as Json[]) : []) {
      const author = (c.author ?? {}) as Json;
      const match = person(author.id);
      plan.comments.push({
        id: context.newId(), taskId: id, authorId: match ?? context.importerId,
        body: match ? str(c.body) : quoteUnmatched(str(author.name, 'Someone'), str(c.body)),
        createdAt: timestamp('Task', t.id, 'comment createdAt', c.createdAt, now), editedAt: maybeTimestamp('Task', t.id, 'comment editedAt', c.editedAt),
      });
    }
  }
  for (const r of doc.runs) {
    const id = ids.get(r.id as string)!;
    const agentId = person((r.agent as Json | null)?.id);
    const open = r.endedAt == null;
    plan.runs.push({
      id, taskId: known('Run', r.id, 'taskId', r.taskId)!, agentId, status: open ? 'lost' : str(r.status, 'lost'), goal: str(r.goal), step: str(r.step),
      steps: r.steps ?? [], stepIndex: typeof r.stepIndex === 'number' ? r.stepIndex : null, log: r.log ?? [], question: r.question ?? null,
      links: r.links ?? [], model: strOrNull(r.model), inputTokens: count('Run', r.id, 'inputTokens', r.inputTokens), outputTokens: count('Run', r.id, 'outputTokens', r.outputTokens),
      costMicros: count('Run', r.id, 'costMicros', r.costMicros), startedAt: timestamp('Run', r.id, 'startedAt', r.startedAt, now),
      updatedAt: open ? now : timestamp('Run', r.id, 'updatedAt', r.updatedAt, now), endedAt: open ? now : timestamp('Run', r.id, 'endedAt', r.endedAt, now),
    });
    const days = new Set<unknown>();
    for (const d of Array.isArray(r.days) ? (r.days as Json[]) : []) {
      if (days.has(d.day)) field('Run', r.id, 'usage days', 'one entry a day');
      days.add(d.day);
      plan.usageDays.push({
        runId: id, day: day('Run', r.id, 'usage day', d.day) ?? field('Run', r.id, 'usage day', 'a day (YYYY-MM-DD)'), agentId: person(d.agentId),
        inputTokens: count('Run', r.id, 'inputTokens', d.inputTokens), outputTokens: count('Run', r.id, 'outputTokens', d.outputTokens),
        costMicros: count('Run', r.id, 'costMicros', d.costMicros),
      });
    }
  }
  rankAfresh(plan.tasks);
  for (const a of doc.activity) {
    plan.history.push({
      id: context.newId(), taskId: a.taskId == null ? null : (ids.get(str(a.taskId)) ?? null), actorId: person(a.actorId), kind: str(a.kind),
      data: remapIds(a.data ?? {}, ids), createdAt: timestamp('Feed line', a.id, 'createdAt', a.createdAt, now),
    });
  }
  return plan;
}
