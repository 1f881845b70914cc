/**
 * The runs an agent holds, shared by the CLI (kept in its state file) and the MCP servers (kept per
 * session): which open runs are the agent's (read off the board, so a new session or another
 * folder finds them), which one a run command acts on, and the sentences that say so. An agent may
 * hold several runs, one per task; commands act on the current one (the last claimed or picked)
 * unless a task is named.
 */
import type { Board, RunStatus } from '@board/client';

export interface HeldRun {
  runId: string;
  taskId: string;
  taskKey: string;
  title: string;
  status: RunStatus;
  startedAt: string;
}

/** The agent's open runs on a board read (which lists open runs only); a handed-over one is no longer its work. */
export function heldFrom(board: Board, agentId: string): HeldRun[] {
  const tasks = new Map<string, { key: string; title: string }>([...board.tasks, ...board.archived].map((t) => [t.id, t]));
  return board.runs
    .filter((run) => run.agent?.id === agentId && run.status !== 'handed_over')
    .map((run) => ({ runId: run.id, taskId: run.taskId, taskKey: tasks.get(run.taskId)?.key ?? run.taskId, title: tasks.get(run.taskId)?.title ?? '', status: run.status, startedAt: run.startedAt }));
}

type Listed = { taskKey: string; status?: string };

/** `ABC-1 (running), ABC-4 (waiting)`; the status when known. */
export function listed(runs: readonly Listed[]): string {
  return runs.map((run) => (run.status ? `${run.taskKey} (${run.status})` : run.taskKey)).join(', ');
}

/** How the caller names a task: `--task <key>` in the CLI, the `task` argument in MCP. */
export type Naming = { option: string };

/** Said after a claim while other runs of the agent stay open: they are kept, and how to reach them. */
export function secondClaimWarning(claimedKey: string, others: readonly Listed[], naming: Naming): string {
  const runs = others.length === 1 ? 'another open run' : `${others.length} other open runs`;
  return `You now hold ${runs} besides ${claimedKey}: ${listed(others)}. They stay open and keep their state; run commands act on ${claimedKey} unless you name another with ${naming.option}.`;
}

/** Said when a claim found the agent's own run already open on the task and carries on with it. */
export function resumedOnClaim(taskKey: string, goal: string): string {
  return `Your run on ${taskKey} was already open; carrying on with it (its goal stays ${goal ? `"${goal}"` : 'empty'}).`;
}

/** Said when several runs are held and none is current: the caller must name one. */
export function nameOne(runs: readonly Listed[], naming: Naming): string {
  return `You hold ${runs.length} open runs: ${listed(runs)}. Name the one you mean with ${naming.option}.`;
}

/** Said when a named task has no open run of the agent's. */
export function noRunOn(taskKey: string, claimHint: string): string {
  return `You have no open run on ${taskKey}: claim it first (${claimHint}).`;
}
