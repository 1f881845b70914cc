import { Injectable } from '@nestjs/common';
import { Database } from '../database';
import { sql } from '../sql';
import { ValueNamesQuery } from './value-names.query';

/** The names in SQL: one query per property's options, one per person not named yet. */
@Injectable()
export class PgValueNamesQuery extends ValueNamesQuery {
  constructor(private readonly db: Database) {
    super();
  }

  /** id → name of those of `optionIds` that are options of `propertyId` in project `projectId`. */
  async optionNames(projectId: string, propertyId: string, optionIds: string[]): Promise<{ id: string; name: string }[]> {
    return this.db.query<{ id: string; name: string }>(
      sql`SELECT id, name FROM options WHERE project_id = ${projectId} AND property_id = ${propertyId} AND id = ANY(${optionIds}::uuid[])`,
    );
  }

  /** The person's name, or null when there is no such person. */
  async personName(userId: string): Promise<string | null> {
    const row = await this.db.one<{ name: string }>(sql`SELECT name FROM users WHERE id = ${userId}`);
    return row?.name ?? null;
  }

  /**
   * Adds to `names` the names of the options (by property) and people in `shown` that it does not
   * hold yet: what the feed lines of a value write show (`namesShown` of @board/tasks).
   */
  async addNames(projectId: string, shown: { options: ReadonlyMap<string, readonly string[]>; people: readonly string[] }, names: Map<string, string>): Promise<void> {
    for (const [propertyId, ids] of shown.options) {
      const missing = ids.filter((id) => !names.has(id));
      if (missing.length > 0) for (const r of await this.optionNames(projectId, propertyId, missing)) names.set(r.id, r.name);
    }
    for (const id of shown.people) {
      if (names.has(id)) continue;
      const name = await this.personName(id);
      if (name !== null) names.set(id, name);
    }
  }
}
