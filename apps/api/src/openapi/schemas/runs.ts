import type { JsonSchema } from '../dto-schema';
import { arrayOf, bool, int, nullable, obj, ref, str, timestamp, uuid, words } from './common';

const status = ref('RunStatus');
const base = {
  id: uuid, goal: str, step: str, status, startedAt: timestamp, endedAt: nullable(timestamp), agent: nullable(ref('Avatar')),
  links: arrayOf(ref('RunLink')), usage: ref('RunUsage'),
};
const count = { type: 'integer', minimum: 0, maximum: 1e15 } as const;
/** A sum of counts over runs and days: past any one run's bound. */
const sum = { type: 'integer', minimum: 0 } as const;

/** Runs (interface.md › Resources › Run). */
export const RUN_SCHEMAS: Record<string, JsonSchema> = {
  RunStatus: words('running', 'paused', 'waiting', 'handed_over', 'done', 'failed', 'stopped', 'lost', 'taken_over'),
  RunStep: obj({ text: str, state: words('done', 'active', 'waiting') }, [], 'One step of the run\'s plan, with whether it is done, under way or still to come.'),
  RunLogLine: obj(
    { at: timestamp, text: str, by: nullable(obj({ id: uuid, name: str })) },
    [],
    'A log line; `by` is the person who wrote it, null for the agent.',
  ),
  ControlWord: words('pause', 'resume', 'stop', 'take_over'),
  RunLink: obj(
    { url: { type: 'string', format: 'uri', maxLength: 2000, example: 'https://git.example.com/web/pull/42' }, title: nullable(str), kind: words('pr', 'branch', 'commit', 'preview', 'session', 'doc', 'other'), at: timestamp },
    [],
    'What a run produced: a pull request, a branch, a preview… kept on the run, past runs too.',
  ),
  RunUsage: obj(
    { inputTokens: count, outputTokens: count, costMicros: count, model: nullable(str) },
    [],
    "The run's totals so far; `costMicros` is millionths of the team's currency.",
  ),
  RunAnswer: obj(
    { text: str, choices: nullable(arrayOf(str)), by: obj({ id: uuid, name: str }), at: timestamp },
    [],
    'A person\'s answer: `choices` in the order offered (null for a free answer); `text` the answer, or the choices joined by ", ".',
  ),
  RunQuestion: obj(
    { id: uuid, text: str, options: nullable(arrayOf(str)), multiple: bool, askedAt: timestamp, answer: nullable(ref('RunAnswer')) },
    [],
    "The run's question to a person: `options` null for a free answer; `answer` null until answered.",
  ),
  Run: obj(
    {
      ...base,
      taskId: uuid,
      control: nullable(ref('ControlWord')),
      updatedAt: timestamp,
      reportDueAt: nullable(timestamp),
      beatAt: timestamp,
      stepsTotal: int,
      stepsDone: int,
      lastLog: nullable(str),
      steps: arrayOf(ref('RunStep')),
      log: arrayOf(ref('RunLogLine')),
      question: nullable(ref('RunQuestion')),
    },
    ['steps', 'log', 'lastLog', 'stepsTotal', 'stepsDone'],
    'A run; `steps` and `log` (last 40 lines) on full run reads.',
  ),
  UsageTotals: obj({ inputTokens: sum, outputTokens: sum, costMicros: sum, runs: int }, [], 'Sums over the range; `runs` counts the runs whose totals grew in it.'),
  AgentUsage: obj(
    { agent: ref('Avatar'), inputTokens: sum, outputTokens: sum, costMicros: sum, runs: int, daily: arrayOf(sum) },
    [],
    "One agent's usage over the range; `daily` holds its costMicros per day of `days`.",
  ),
  Usage: obj(
    { from: { type: 'string', format: 'date' }, to: { type: 'string', format: 'date' }, days: arrayOf({ type: 'string', format: 'date' }), total: ref('UsageTotals'), agents: arrayOf(ref('AgentUsage')) },
    [],
    "A project's usage by agent and day.",
  ),
  PastRun: obj(base, [], 'A closed run: no plan, no log, no question; what it produced and cost.'),
};
