import { OptionRecord } from './option-view';
import { PropertyConfig } from './property';
import { Ranked } from './ordering';

export interface PropertyRecord {
  id: string;
  projectId: string;
  name: string;
  type: string;
  position: string;
  config: PropertyConfig;
  createdAt: Date;
}

/** Where a property shows on the project's cards. */
export interface CardRow {
  place: string;
  mode: string;
}

/** A view that groups by a property. */
export interface GroupingView {
  id: string;
  name: string;
  kind: string;
}

/** The name clash an option write reports: the property's and the option's names. */
export type OptionClash = {
  property: string;
  option: string;
};

/**
 * Writes and small reads of properties, options and what hangs off them (card view rows, task
 * values, views' groupings). Port; the PostgreSQL adapter is in libs/persistence.
 */
export abstract class PropertyRepository {
  abstract findProperty(projectId: string, id: string): Promise<PropertyRecord | null>;
  /** Every property of the project with its position (for ordering). */
  abstract propertyRanks(projectId: string): Promise<Ranked[]>;
  abstract lastPropertyPosition(projectId: string): Promise<string | null>;
  abstract insertProperty(property: Omit<PropertyRecord, 'createdAt'>): Promise<PropertyRecord>;
  abstract updateProperty(projectId: string, id: string, change: { name?: string; position?: string; config?: PropertyConfig }): Promise<void>;
  /** Views of the project that group by the property, in display order. */
  abstract groupingViews(projectId: string, propertyId: string): Promise<GroupingView[]>;
  /** Removes the property and everything of it (options, values, card rows, doneWhen, groupings of non-boards). */
  abstract deleteProperty(projectId: string, propertyId: string): Promise<void>;
  /** Tasks (archived included, deleted not) holding a real value of the property. */
  abstract countValues(projectId: string, propertyId: string): Promise<number>;
  abstract cardRow(projectId: string, propertyId: string): Promise<CardRow | null>;
  abstract setCardRow(projectId: string, propertyId: string, row: CardRow): Promise<void>;
  /** The property's options in display order. */
  abstract options(projectId: string, propertyId: string): Promise<OptionRecord[]>;
  abstract findOption(projectId: string, optionId: string): Promise<OptionRecord | null>;
  /** A name another option of the property carries is refused with option.duplicate (the unique index decides). */
  abstract insertOption(projectId: string, option: Omit<OptionRecord, 'shippedAt'>, clash: OptionClash): Promise<void>;
  abstract updateOption(projectId: string, option: OptionRecord, clash: OptionClash): Promise<void>;
  /** Deletes an option and scrubs it from every task value and from doneWhen. */
  abstract deleteOption(projectId: string, propertyId: string, optionId: string): Promise<void>;
  /** Tasks (archived included, deleted not) holding the option, alone or in a list. */
  abstract countOptionTasks(projectId: string, propertyId: string, optionId: string): Promise<number>;
}
