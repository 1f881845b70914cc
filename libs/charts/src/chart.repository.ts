import { ChartRecord } from './chart';

/** A select property a flow chart follows, with its options in order. */
export interface FlowProperty {
  id: string;
  projectId: string;
  name: string;
  type: string;
  options: { id: string; name: string; color: string }[];
}

/** A person's charts as kept, and the lookups their checks need (port; the adapter is in libs/persistence). */
export abstract class ChartRepository {
  /** The person's charts, oldest first. */
  abstract list(userId: string): Promise<ChartRecord[]>;
  abstract find(userId: string, chartId: string): Promise<ChartRecord | null>;
  abstract insert(chart: ChartRecord): Promise<void>;
  /** Saves the name, the projects and the property (the rest never changes). */
  abstract update(chart: ChartRecord): Promise<void>;
  /** Answers whether there was one. */
  abstract delete(userId: string, chartId: string): Promise<boolean>;
  /** Those of `projectIds` the person is a member of. */
  abstract memberProjects(userId: string, projectIds: readonly string[]): Promise<Set<string>>;
  /** The projects of every chart of the person that the person is still a member of. */
  abstract memberProjectsOfCharts(userId: string): Promise<Set<string>>;
  /** A property of one of `projectIds`, with its options in order (a flow chart's). */
  abstract property(propertyId: string, projectIds: readonly string[]): Promise<FlowProperty | null>;
}
