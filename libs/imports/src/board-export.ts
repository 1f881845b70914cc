import { fail } from '@board/kernel';

/** What a project export says it is (extensions.md § 3.4); anything else is read as a Trello export. */
export const BOARD_EXPORT_FORMAT = 'task-board-export';
export const BOARD_EXPORT_VERSION = 1;

type Json = Record<string, unknown>;

/** A project export as the import reads it: its sections, each checked to be a list of objects with string ids. */
export interface BoardExport {
  project: Json & { members: Json[] };
  properties: Json[];
  views: Json[];
  cardView: Json;
  rules: Json;
  tasks: Json[];
  runs: Json[];
  activity: Json[];
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** True when the body says it is a project export: the import then reads it as one, never as Trello's. */
export function isBoardExport(body: unknown): boolean {
  return isObject(body) && body.format === BOARD_EXPORT_FORMAT;
}

const SECTIONS = ['properties', 'views', 'tasks', 'runs', 'activity'] as const;

/**
 * Reads a project export: its version, its sections as lists of objects, each entry's id a string
 * seen once. What the entries hold is checked as the plan maps it (references to ids the export
 * does not hold are refused there), so a bad document is refused before anything is written.
 */
export function readBoardExport(body: unknown): BoardExport {
  if (!isObject(body) || body.format !== BOARD_EXPORT_FORMAT) return fail('import.not_trello');
  if (body.version !== BOARD_EXPORT_VERSION) return fail('import.export_version');
  if (!isObject(body.project) || !Array.isArray(body.project.members)) return fail('import.export_section', { section: 'project.members' });
  for (const section of SECTIONS) {
    const list = body[section];
    if (!Array.isArray(list)) return fail('import.export_section', { section });
    const seen = new Set<string>();
    list.forEach((entry, i) => {
      if (!isObject(entry)) fail('import.export_entry', { section, index: i + 1 });
      if (typeof entry.id !== 'string') fail('import.export_entry', { section, index: i + 1 });
      if (seen.has(entry.id as string)) fail('import.duplicate', { thing: THING[section], id: entry.id });
      seen.add(entry.id as string);
    });
  }
  const members = body.project.members as unknown[];
  if (!members.every(isObject)) return fail('import.export_section', { section: 'project.members' });
  return {
    project: body.project as BoardExport['project'],
    properties: body.properties as Json[],
    views: body.views as Json[],
    cardView: isObject(body.cardView) ? body.cardView : { rows: {} },
    rules: isObject(body.rules) ? body.rules : { text: '' },
    tasks: body.tasks as Json[],
    runs: body.runs as Json[],
    activity: body.activity as Json[],
  };
}

const THING: Record<(typeof SECTIONS)[number], string> = {
  properties: 'Property',
  views: 'View',
  tasks: 'Task',
  runs: 'Run',
  activity: 'Feed line',
};
