import { fail } from '@board/kernel';

/**
 * Tasks a project holds at most, live and archived together (those in the bin do not count):
 * one project's board must stay small enough to read and send without stalling an instance
 * (decisions.md › Fair use).
 */
export const MAX_PROJECT_TASKS = 50_000;

/** `adding` more tasks for a project that holds `count`: refused past the limit, before anything is written. */
export function checkProjectRoom(count: number, adding: number): void {
  if (adding > 0 && count + adding > MAX_PROJECT_TASKS) fail('task.project_full');
}
