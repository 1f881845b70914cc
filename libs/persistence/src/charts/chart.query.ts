import type { ChartKind } from '@board/charts';

/** What a chart counts over: the reader, the projects, the flow property (null: each project's doneWhen property), the days. */
export interface ChartScope {
  userId: string;
  projectIds: readonly string[];
  propertyId: string | null;
  from: string;
  to: string;
}

/** Chart data, counted from the feed and the tasks' current state; never the feed in the service. */
export abstract class ChartQuery {
  /** Counted values `{ day (index from `from`), key, n }`; a series has no row on a day it counts 0. */
  abstract counts(input: ChartScope & { kind: ChartKind }): Promise<{ day: number; key: string; n: number }[]>;
}
