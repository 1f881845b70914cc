import { OPTION_COLORS, ranksAfter } from '@board/kernel';
import { ProjectTemplate, templateProperties } from './project-template';

export interface SeedProperty {
  id: string;
  name: string;
  type: string;
  position: string;
  config: Record<string, unknown>;
  options: { id: string; name: string; color: string; position: string }[];
}

export interface CardRowSeed {
  place: string;
  mode: string;
}

export interface ProjectSeed {
  status: SeedProperty;
  /** The template's properties after Status, in order (none for `empty`). */
  more: SeedProperty[];
  doneOptionId: string;
  view: { id: string; name: string; kind: 'board'; groupById: string; position: string; isDefault: true };
  cardView: { rows: Record<string, CardRowSeed> };
}

/**
 * What every new project starts with: Status (To do, In progress, Done), doneWhen, the main board;
 * a template adds its properties after Status, shown on the cards.
 */
export function projectSeed(newId: () => string, template: ProjectTemplate = 'empty'): ProjectSeed {
  const [position] = ranksAfter(null, 1);
  const optionRanks = ranksAfter(null, 3);
  const options = ['To do', 'In progress', 'Done'].map((name, i) => ({
    id: newId(),
    name,
    color: OPTION_COLORS[i],
    position: optionRanks[i],
  }));
  const status: SeedProperty = { id: newId(), name: 'Status', type: 'select', position, config: {}, options };
  const more = templateProperties(template, position, newId);
  return {
    status,
    more: more.map((m) => m.property),
    doneOptionId: options[2].id,
    view: { id: newId(), name: 'Board', kind: 'board', groupById: status.id, position, isDefault: true },
    cardView: {
      rows: {
        _title: { place: 'title', mode: 'fixed' },
        [status.id]: { place: 'headerL', mode: 'colour' },
        ...Object.fromEntries(more.map((m) => [m.property.id, m.card])),
      },
    },
  };
}
