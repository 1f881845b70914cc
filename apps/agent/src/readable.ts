/**
 * What the agent tools answer, shaped for a model to read: property and option names with their
 * ids beside them (so a later call can use the id), people by name, runs as status, step, plan and
 * recent log. Colours, emoji, ranks and other screen data are left out: they cost a model tokens
 * and tell it nothing. Shared by the MCP servers and the CLI's --json.
 */
import type { Board, Run, Task } from '@board/client';

type Property = Board['properties'][number];
type Member = Board['members'][number];

export interface RunBrief {
  id: string;
  taskId: string;
  status: Run['status'];
  goal: string;
  step: string;
  control: Run['control'];
  stepsDone?: number;
  stepsTotal?: number;
  lastLog?: string | null;
  /** The plan, one line a step: `[x]` done, `[>]` active, `[ ]` waiting. */
  plan?: string[];
  /** Recent log lines, oldest first: `<who>: <text>` for a person's line. */
  log?: string[];
  reportDueAt?: string | null;
  endedAt?: string | null;
  /** The open or last question: `text`, the options offered, and the answer with who gave it. */
  question?: { text: string; options: string[] | null; multiple: boolean; answer: string | null; answeredBy: string | null };
  /** What the run produced: `kind: title <url>`. */
  links?: string[];
  usage?: Run['usage'];
}

const MARK = { done: '[x]', active: '[>]', waiting: '[ ]' } as const;

/** A run without its avatar, timestamps of beats and other noise; `logLines` keeps the last few log lines. */
export function briefRun(run: Run, logLines = 10): RunBrief {
  return {
    id: run.id,
    taskId: run.taskId,
    status: run.status,
    goal: run.goal,
    step: run.step,
    control: run.control,
    ...(run.stepsTotal !== undefined && { stepsDone: run.stepsDone, stepsTotal: run.stepsTotal }),
    ...(run.lastLog !== undefined && { lastLog: run.lastLog }),
    ...(run.steps && { plan: run.steps.map((s) => `${MARK[s.state]} ${s.text}`) }),
    ...(run.log && { log: run.log.slice(-logLines).map((line) => (line.by ? `${line.by.name}: ${line.text}` : line.text)) }),
    ...(run.reportDueAt && { reportDueAt: run.reportDueAt }),
    ...(run.endedAt && { endedAt: run.endedAt }),
    ...(run.question && {
      question: { text: run.question.text, options: run.question.options, multiple: run.question.multiple, answer: run.question.answer?.text ?? null, answeredBy: run.question.answer?.by?.name ?? null },
    }),
    ...(run.links?.length && { links: run.links.map(linkLine) }),
    ...(run.usage && (run.usage.inputTokens || run.usage.outputTokens || run.usage.costMicros || run.usage.model) && { usage: run.usage }),
  };
}

/** A run's link for a model: `pr: Fix login <https://…>`, the title when there is one. */
export function linkLine(link: { url: string; title: string | null; kind: string }): string {
  return `${link.kind}: ${link.title ? `${link.title} ` : ''}<${link.url}>`;
}

/** Millionths of the team's currency as a short amount: 1234567 → `1.2346`. */
export function money(micros: number): string {
  return (micros / 1_000_000).toFixed(4);
}

/** One set value, named: `{ property, propertyId, value, optionId }` and the like by type. */
export interface NamedValue {
  property: string;
  propertyId: string;
  type: Property['type'];
  value: unknown;
  optionId?: string;
  optionIds?: string[];
  memberId?: string;
}

function named(property: Property, raw: unknown, members: Map<string, Member>): NamedValue | null {
  if (raw === null || raw === undefined || raw === '' || (Array.isArray(raw) && !raw.length)) return null;
  const base = { property: property.name, propertyId: property.id, type: property.type };
  const option = (id: unknown) => property.options.find((o) => o.id === id)?.name ?? '(removed option)';
  switch (property.type) {
    case 'select':
    case 'iteration':
      return { ...base, value: option(raw), optionId: String(raw) };
    case 'multi_select': {
      const ids = (raw as unknown[]).map(String);
      return { ...base, value: ids.map(option), optionIds: ids };
    }
    case 'person':
      return { ...base, value: members.get(String(raw))?.name ?? '(not a member any more)', memberId: String(raw) };
    default:
      return { ...base, value: raw };
  }
}

/** The task's set values, in the project's property order, by name. */
export function namedValues(values: Record<string, unknown>, board: Pick<Board, 'properties' | 'members'>): NamedValue[] {
  const members = new Map(board.members.map((m) => [m.id, m]));
  return board.properties.map((p) => named(p, values[p.id], members)).filter((v): v is NamedValue => v !== null);
}

const row = (t: { key: string; title: string; over: boolean }) => `${t.key} ${t.title}${t.over ? ' (over)' : ''}`;

/** A full task read for a model: names with ids beside, people by name, the open run in brief. */
export function readableTask(task: Task, board: Pick<Board, 'properties' | 'members'>) {
  return {
    key: task.key,
    id: task.id,
    title: task.title,
    description: task.description,
    ...(task.archivedAt && { archivedAt: task.archivedAt }),
    values: namedValues(task.values, board),
    checklist: task.checklist.map((item) => ({ id: item.id, text: item.text, done: item.done })),
    blockedBy: task.links.blockedBy.map(row),
    blocks: task.links.blocks.map(row),
    parent: task.parent ? row(task.parent) : null,
    children: task.children.map(row),
    comments: task.comments.map((c) => ({ id: c.id, by: c.author?.name ?? '(removed)', at: c.createdAt, text: c.body })),
    run: task.run ? { ...briefRun(task.run), agent: task.run.agent?.name ?? null } : null,
    pastRuns: task.pastRuns.map((r) => ({ id: r.id, status: r.status, goal: r.goal, step: r.step, agent: r.agent?.name ?? null, endedAt: r.endedAt })),
    recentActivity: task.activity.slice(0, 10).map((a) => `${a.createdAt} ${a.actor?.name ?? 'someone'}: ${a.kind}${describe(a.data as Record<string, unknown>)}`),
  };
}

/** The few words of an activity line a model can use; ids are left out. */
function describe(data: Record<string, unknown>): string {
  if (typeof data.property === 'string') return ` ${data.property} → ${Array.isArray(data.value) ? data.value.join(', ') : String(data.value ?? 'empty')}`;
  if (typeof data.action === 'string') return ` ${data.action}`;
  return '';
}
