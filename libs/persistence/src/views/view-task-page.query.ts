import type { Filters, SortSpec } from '@board/filters';
import type { PropertyDef } from '@board/properties';

export interface ViewTasksPageRequest {
  projectId: string;
  /** The reader, for `me` in person rules. */
  me: string;
  properties: readonly PropertyDef[];
  filters: Filters;
  lens: Filters;
  sort: SortSpec | null;
  /** The last task of the previous page, or null for the first page. */
  after: string | null;
  limit: number;
}

export interface ViewTasksPage {
  /** How many live tasks pass the rules. */
  total: number;
  /** Up to `limit + 1` ids in the reader's order (one more than asked tells that a next page exists). */
  ids: string[];
}

/** The ids of a view's task page, filtered and ordered (read model: nothing is written). */
export abstract class ViewTaskPageQuery {
  abstract page(request: ViewTasksPageRequest): Promise<ViewTasksPage>;
}
