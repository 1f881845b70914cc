import { fail, OPTION_COLORS, rankBetween, ranksAfter } from '@board/kernel';
import type { CardRowSeed, SeedProperty } from './project-defaults';

/** What a new project may start from: `empty` is the contract's new project. */
export const PROJECT_TEMPLATES = ['empty', 'team'] as const;
export type ProjectTemplate = (typeof PROJECT_TEMPLATES)[number];

/** Absent or null is the default, `empty`; anything else must be one of the names. */
export function readProjectTemplate(value: unknown): ProjectTemplate {
  if (value === undefined || value === null) return 'empty';
  if (typeof value !== 'string' || !(PROJECT_TEMPLATES as readonly string[]).includes(value)) fail('project.template_invalid');
  return value as ProjectTemplate;
}

interface TemplateProperty {
  name: string;
  type: string;
  options: string[];
  /** Where the card shows it: the team sees who, when and how urgent without opening a task. */
  card: CardRowSeed;
}

const TEAM: TemplateProperty[] = [
  { name: 'Assignee', type: 'person', options: [], card: { place: 'footer', mode: 'avatar' } },
  { name: 'Due', type: 'date', options: [], card: { place: 'footer', mode: 'text' } },
  { name: 'Priority', type: 'select', options: ['Urgent', 'High', 'Medium', 'Low'], card: { place: 'headerR', mode: 'text' } },
  { name: 'Labels', type: 'multi_select', options: ['Bug', 'Feature', 'Chore'], card: { place: 'footer', mode: 'text' } },
];

const TEMPLATE_PROPERTIES: Record<ProjectTemplate, TemplateProperty[]> = { empty: [], team: TEAM };

/**
 * The template's properties, placed after `afterPosition` (Status) in the template's order, each
 * with its options coloured from the palette in order, and the card row it starts with.
 */
export function templateProperties(
  template: ProjectTemplate,
  afterPosition: string,
  newId: () => string,
): { property: SeedProperty; card: CardRowSeed }[] {
  let position = afterPosition;
  return TEMPLATE_PROPERTIES[template].map((t) => {
    position = rankBetween(position, null);
    const ranks = ranksAfter(null, t.options.length);
    const options = t.options.map((name, i) => ({ id: newId(), name, color: OPTION_COLORS[i % OPTION_COLORS.length], position: ranks[i] }));
    return { property: { id: newId(), name: t.name, type: t.type, position, config: {}, options }, card: t.card };
  });
}
