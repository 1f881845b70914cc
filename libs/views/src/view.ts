import type { Filters, SortSpec } from '@board/filters';
import { fail, InTurn, readText } from '@board/kernel';

export const VIEW_KINDS = ['board', 'list', 'roadmap'] as const;
export type ViewKind = (typeof VIEW_KINDS)[number];
export const VIEW_NAME_MAX = 80;

/** Types a board can make columns from, and the ones a roadmap draws. */
const BOARD_GROUP_TYPES = ['select', 'iteration', 'person', 'checkbox'];
const ROADMAP_GROUP_TYPES = ['select', 'iteration'];

export function readViewName(value: unknown, required: true): string;
export function readViewName(value: unknown, required: boolean): string | undefined;
export function readViewName(value: unknown, required: boolean): string | undefined {
  return readText(value, 'name', { max: VIEW_NAME_MAX, required });
}

export function readViewKind(value: unknown): ViewKind {
  if (typeof value !== 'string' || !(VIEW_KINDS as readonly string[]).includes(value)) fail('view.kind_invalid');
  return value as ViewKind;
}

/** A new view as its request DTO read it; whether `groupById` is a property of the project is stored state. */
export interface ViewCreate {
  name: string;
  kind: ViewKind;
  groupById?: string | null;
}

/**
 * A change of a view as its request DTO read it; what is absent stays. Filters and a sort are
 * read for their shape: which rules and columns hold depends on the project's properties
 * (`cleanFilters`, `cleanSort`). `afterId` is refused only after the grouping and the filters'
 * gate (the contract's order), so its refusal waits its turn.
 */
export interface ViewChange {
  name?: string;
  kind?: ViewKind;
  groupById?: string | null;
  filters?: Filters;
  sort?: SortSpec | null;
  afterId?: InTurn<string | null>;
}

/** A person's lens, its shape read like a view's filters and sort. */
export interface LensAsked {
  filters: Filters;
  sort: SortSpec | null;
}

/**
 * Checks a view's grouping for its kind. A board needs a select, iteration, person or checkbox
 * property; a roadmap a select or iteration; a list may remember any property of the project.
 * `group` is the grouping property's type, or null when there is none.
 */
export function assertGrouping(kind: ViewKind, group: { type: string } | null, onCreate: boolean): void {
  if (kind === 'list') return;
  if (!group) fail(onCreate ? 'view.group_missing' : kind === 'board' ? 'view.board_needs_group' : 'view.roadmap_type');
  if (kind === 'board' && !BOARD_GROUP_TYPES.includes(group.type)) fail('view.group_type');
  if (kind === 'roadmap' && !ROADMAP_GROUP_TYPES.includes(group.type)) fail('view.roadmap_type');
}

/** One property carries one rule: a person's lens may not ask about what the view already filters. */
export function assertLensFits(
  viewRules: readonly { propertyId: string }[],
  lensRules: readonly { propertyId: string }[],
  nameOf: (propertyId: string) => string,
): void {
  const taken = new Set(viewRules.map((r) => r.propertyId));
  const clash = lensRules.find((r) => taken.has(r.propertyId));
  if (clash) fail('view.lens_clash', { property: nameOf(clash.propertyId) });
}
