import type { CsvTask } from '@board/views';

/** What a view's CSV shows of its tasks (read model: nothing is written). */
export abstract class ViewCsvQuery {
  /** The tasks `ids` of the project, in the order of `ids`. */
  abstract tasks(projectId: string, ids: readonly string[]): Promise<CsvTask[]>;

  /** Names of the project's options and members by id: what the values name. */
  abstract names(projectId: string): Promise<Map<string, string>>;
}
