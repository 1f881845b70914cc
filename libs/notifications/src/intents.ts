import { ActivityLine, Said, WriteEvent } from '@board/kernel';
import { newMentions } from './mentions';
import { ENDING_STATUSES, firstCharacters, Mentionable, NotificationIntent } from './notification';

/** The human members of a project, by project id (only the projects `mentionProjects` names are asked for). */
export type PeopleOf = (projectId: string) => readonly Mentionable[];

/**
 * The one place notifications are made: from a write's declared events (its feed lines with their
 * `assigned`, and what it `said`), whichever path wrote them. Pure: the adapter that writes the
 * events writes these in the same transaction or statement.
 */
export function notificationIntents(events: readonly WriteEvent[], peopleOf: PeopleOf = () => []): NotificationIntent[] {
  const intents: NotificationIntent[] = [];
  for (const event of events) {
    if (event.type === 'line') intents.push(...ofLine(event.line));
    else if (event.type === 'lines-ringing-once') event.lines.forEach((line) => intents.push(...ofLine(line)));
    else if (event.type === 'said') intents.push(...ofSaid(event.said, peopleOf));
  }
  return intents;
}

/** Projects whose members a mention may name: asked for only when a comment holds an `@`. */
export function mentionProjects(events: readonly WriteEvent[]): string[] {
  const ids = new Set<string>();
  for (const e of events) if (e.type === 'said' && e.said.kind === 'comment' && e.said.text.includes('@')) ids.add(e.said.projectId);
  return [...ids];
}

function ofLine(line: ActivityLine): NotificationIntent[] {
  if (!line.taskId || line.kind === 'import') return [];
  const base = { projectId: line.projectId, taskId: line.taskId, actorId: line.actorId };
  const intents: NotificationIntent[] = (line.assigned ?? [])
    .filter((a) => a.userIds.length > 0)
    .map((a) => ({ ...base, kind: 'assigned', text: a.propertyName, runId: null, recipients: a.userIds }));
  const status = line.data.status;
  if (line.kind === 'run' && typeof line.data.runId === 'string' && (ENDING_STATUSES as readonly unknown[]).includes(status)) {
    intents.push({ ...base, kind: 'run_ended', text: null, runId: line.data.runId, recipients: null });
  }
  return intents;
}

function ofSaid(said: Said, peopleOf: PeopleOf): NotificationIntent[] {
  const base = { projectId: said.projectId, taskId: said.taskId, actorId: said.actorId, runId: null };
  if (said.kind === 'question') return [{ ...base, kind: 'question', text: said.text, recipients: null }];
  if (!said.text.includes('@')) return [];
  // Nobody is told of their own act.
  const people = newMentions(said.before, said.text, peopleOf(said.projectId)).filter((id) => id !== said.actorId);
  return people.length === 0 ? [] : [{ ...base, kind: 'mention', text: firstCharacters(said.text), recipients: people }];
}
