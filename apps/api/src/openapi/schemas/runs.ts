import type { JsonSchema } from '../dto-schema';
import { arrayOf, int, nullable, obj, ref, str, timestamp, uuid, words } from './common';

const status = ref('RunStatus');
const base = { id: uuid, goal: str, step: str, status, startedAt: timestamp, endedAt: nullable(timestamp), agent: nullable(ref('Avatar')) };

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
    },
    ['steps', 'log', 'lastLog', 'stepsTotal', 'stepsDone'],
    'A run; `steps` and `log` (last 40 lines) on full run reads.',
  ),
  PastRun: obj(base, [], 'A closed run: no plan, no log.'),
};
