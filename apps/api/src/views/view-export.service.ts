import { Injectable } from '@nestjs/common';
import { stringify } from 'csv-stringify/sync';
import { cleanFilters, cleanSort } from '@board/filters';
import { fail } from '@board/kernel';
import { ProjectFactsQuery, PropertyDefsQuery, ViewCsvQuery, ViewTaskPageQuery } from '@board/persistence';
import { MAX_PROJECT_TASKS } from '@board/tasks';
import { csvHeader, CsvCell, csvRow, ViewRepository } from '@board/views';
import { ProjectCaller } from '../auth/auth-context';

/** Rows read per statement: a 50,000-task view is read in bounded pieces, not one huge result. */
const ROWS_PER_READ = 2_000;

/** What the CSV route sends: the text and the view's name for the file. */
export interface ViewCsv {
  name: string;
  csv: string;
}

@Injectable()
export class ViewExportService {
  constructor(
    private readonly views: ViewRepository,
    private readonly defs: PropertyDefsQuery,
    private readonly facts: ProjectFactsQuery,
    private readonly pages: ViewTaskPageQuery,
    private readonly rows: ViewCsvQuery,
  ) {}

  /**
   * The view's live tasks in its own order (its shared filters and sort; never the reader's
   * lens, so every member downloads the same file), one RFC 4180 row each (extensions.md § 3.4).
   */
  async csv(caller: ProjectCaller, viewId: string): Promise<ViewCsv> {
    // No reader: the lens is a person's own, and the file is the view's.
    const view = (await this.views.find(caller.projectId, viewId, null)) ?? fail('view.not_found');
    const defs = await this.defs.load(caller.projectId);
    const page = await this.pages.page({
      projectId: caller.projectId,
      me: caller.userId,
      properties: defs,
      filters: cleanFilters(view.filters ?? { rules: [] }, { properties: defs }),
      lens: { rules: [] },
      sort: cleanSort(view.sort, defs),
      after: null,
      limit: MAX_PROJECT_TASKS,
    });
    const [{ key }, names] = await Promise.all([this.facts.load(caller.projectId), this.rows.names(caller.projectId)]);
    const records: CsvCell[][] = [csvHeader(defs)];
    for (let at = 0; at < page.ids.length; at += ROWS_PER_READ) {
      for (const task of await this.rows.tasks(caller.projectId, page.ids.slice(at, at + ROWS_PER_READ))) records.push(csvRow(key, defs, task, names));
    }
    // RFC 4180: CRLF between records, fields with a comma, quote or line break quoted, quotes doubled.
    return { name: view.name, csv: stringify(records, { record_delimiter: 'windows' }) };
  }
}
