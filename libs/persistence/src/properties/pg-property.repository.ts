import { Injectable } from '@nestjs/common';
import { fail } from '@board/kernel';
import { CardRow, GroupingView, OptionClash, OptionRecord, PropertyConfig, PropertyRecord, PropertyRepository, Ranked } from '@board/properties';
import { Database, pgErrorCode } from '../database';
import { Sql, sql } from '../sql';
import { OPTION_COLUMNS } from './options.table';
import { PROPERTY_COLUMNS } from './properties.table';

/** Empty values (no key, null, "", []) do not count as holding a value. */
const holdsValue = (propertyId: string): Sql =>
  sql`"values" ? ${propertyId}::text AND NOT ("values" -> ${propertyId}::text IN ('null'::jsonb, '""'::jsonb, '[]'::jsonb))`;

/** Writes and small reads of properties, options and what hangs off them (card view rows, values, views). */
@Injectable()
export class PgPropertyRepository extends PropertyRepository {
  constructor(private readonly db: Database) {
    super();
  }

  // ---- properties -------------------------------------------------------------------------

  async findProperty(projectId: string, id: string): Promise<PropertyRecord | null> {
    const row = await this.db.one<PropertyRecord>(sql`SELECT ${PROPERTY_COLUMNS} FROM properties WHERE project_id = ${projectId} AND id = ${id}`);
    return row ? { ...row, config: row.config ?? {} } : null;
  }

  /** Every property of the project with its position (for ordering). */
  async propertyRanks(projectId: string): Promise<Ranked[]> {
    return this.db.query<Ranked>(sql`SELECT id, position FROM properties WHERE project_id = ${projectId}`);
  }

  async lastPropertyPosition(projectId: string): Promise<string | null> {
    const row = await this.db.one<{ position: string }>(
      sql`SELECT position FROM properties WHERE project_id = ${projectId} ORDER BY position COLLATE "C" DESC LIMIT 1`,
    );
    return row?.position ?? null;
  }

  async insertProperty(p: Omit<PropertyRecord, 'createdAt'>): Promise<PropertyRecord> {
    return this.db.single<PropertyRecord>(sql`INSERT INTO properties (id, project_id, name, type, position, config)
      VALUES (${p.id}, ${p.projectId}, ${p.name}, ${p.type}, ${p.position}, ${JSON.stringify(p.config)}) RETURNING ${PROPERTY_COLUMNS}`);
  }

  async updateProperty(projectId: string, id: string, change: { name?: string; position?: string; config?: PropertyConfig }): Promise<void> {
    const config = change.config === undefined ? null : JSON.stringify(change.config);
    await this.db.exec(sql`UPDATE properties
        SET name = COALESCE(${change.name ?? null}, name), position = COALESCE(${change.position ?? null}, position),
            config = COALESCE(${config}::jsonb, config)
      WHERE project_id = ${projectId} AND id = ${id}`);
  }

  /** Views of the project that group by the property, in display order. */
  async groupingViews(projectId: string, propertyId: string): Promise<GroupingView[]> {
    return this.db.query<GroupingView>(
      sql`SELECT id, name, kind FROM views WHERE project_id = ${projectId} AND group_by_id = ${propertyId} ORDER BY position COLLATE "C", created_at, id`,
    );
  }

  /**
   * Removes the property and everything of it: its options, every task's value (deleted tasks
   * too, so a restore brings nothing dead back), its card view rows, a doneWhen naming it and the
   * remembered grouping of views that are not boards.
   */
  async deleteProperty(projectId: string, propertyId: string): Promise<void> {
    const key = sql`${propertyId}::text`;
    await this.db.exec(sql`UPDATE views SET group_by_id = NULL WHERE project_id = ${projectId} AND group_by_id = ${propertyId}`);
    await this.db.exec(sql`UPDATE views SET card_view = card_view #- ARRAY['rows', ${key}]
      WHERE project_id = ${projectId} AND card_view IS NOT NULL AND card_view->'rows' ? ${key}`);
    await this.db.exec(sql`UPDATE projects SET card_view = card_view #- ARRAY['rows', ${key}],
            done_when = CASE WHEN done_when->>'propertyId' = ${key} THEN NULL ELSE done_when END
      WHERE id = ${projectId}`);
    await this.db.exec(sql`UPDATE tasks SET "values" = "values" - ${key} WHERE project_id = ${projectId} AND "values" ? ${key}`);
    await this.db.exec(sql`DELETE FROM options WHERE project_id = ${projectId} AND property_id = ${propertyId}`);
    await this.db.exec(sql`DELETE FROM properties WHERE project_id = ${projectId} AND id = ${propertyId}`);
  }

  /** Tasks (archived included, deleted not) holding a real value of the property. */
  async countValues(projectId: string, propertyId: string): Promise<number> {
    const row = await this.db.one<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM tasks WHERE project_id = ${projectId} AND deleted_at IS NULL AND ${holdsValue(propertyId)}`,
    );
    return row?.n ?? 0;
  }

  // ---- card view --------------------------------------------------------------------------

  async cardRow(projectId: string, propertyId: string): Promise<CardRow | null> {
    const row = await this.db.one<{ row: CardRow | null }>(sql`SELECT card_view->'rows'->${propertyId}::text AS row FROM projects WHERE id = ${projectId}`);
    return row?.row ?? null;
  }

  async setCardRow(projectId: string, propertyId: string, row: CardRow): Promise<void> {
    const value = JSON.stringify({ place: row.place, mode: row.mode });
    await this.db.exec(sql`UPDATE projects
        SET card_view = COALESCE(card_view, '{}'::jsonb)
              || jsonb_build_object('rows', COALESCE(card_view->'rows', '{}'::jsonb) || jsonb_build_object(${propertyId}::text, ${value}::jsonb))
      WHERE id = ${projectId}`);
  }

  // ---- options ----------------------------------------------------------------------------

  /** The property's options in display order. */
  async options(projectId: string, propertyId: string): Promise<OptionRecord[]> {
    return this.db.query<OptionRecord>(
      sql`SELECT ${OPTION_COLUMNS} FROM options WHERE project_id = ${projectId} AND property_id = ${propertyId} ORDER BY position COLLATE "C", id`,
    );
  }

  async findOption(projectId: string, optionId: string): Promise<OptionRecord | null> {
    return this.db.one<OptionRecord>(sql`SELECT ${OPTION_COLUMNS} FROM options WHERE project_id = ${projectId} AND id = ${optionId}`);
  }

  /**
   * Inserts an option. A name another option of the property carries (case and surrounding
   * spaces ignored, by the unique index) is refused with option.duplicate.
   */
  async insertOption(
    projectId: string,
    o: Omit<OptionRecord, 'shippedAt'>,
    clash: OptionClash,
  ): Promise<void> {
    await this.guardName(clash, () =>
      this.db.exec(sql`INSERT INTO options (id, project_id, property_id, name, color, position, starts_on, target_on, note)
        VALUES (${o.id}, ${projectId}, ${o.propertyId}, ${o.name}, ${o.color}, ${o.position}, ${o.startsOn}, ${o.targetOn}, ${o.note})`),
    );
  }

  async updateOption(projectId: string, o: OptionRecord, clash: OptionClash): Promise<void> {
    await this.guardName(clash, () =>
      this.db.exec(sql`UPDATE options SET name = ${o.name}, color = ${o.color}, position = ${o.position}, starts_on = ${o.startsOn},
          target_on = ${o.targetOn}, note = ${o.note}, shipped_at = ${o.shippedAt}
        WHERE project_id = ${projectId} AND id = ${o.id}`),
    );
  }

  /**
   * Deletes an option and scrubs it from every task value (deleted tasks too): a select holding
   * it loses the key, a multi-select drops it from its list (and the key when the list empties).
   * A doneWhen naming it forgets it.
   */
  async deleteOption(projectId: string, propertyId: string, optionId: string): Promise<void> {
    const key = sql`${propertyId}::text`;
    const option = sql`${optionId}::text`;
    await this.db.exec(sql`UPDATE tasks SET "values" = CASE
         WHEN jsonb_typeof("values"->${key}) = 'array' AND ("values"->${key}) - ${option} <> '[]'::jsonb
           THEN jsonb_set("values", ARRAY[${key}], ("values"->${key}) - ${option})
         ELSE "values" - ${key}
       END
      WHERE project_id = ${projectId} AND "values"->${key} ? ${option}`);
    await this.db.exec(sql`UPDATE projects SET done_when = jsonb_set(done_when, '{optionIds}', (done_when->'optionIds') - ${option})
      WHERE id = ${projectId} AND done_when->'optionIds' ? ${option}`);
    await this.db.exec(sql`DELETE FROM options WHERE project_id = ${projectId} AND id = ${optionId}`);
  }

  /** Tasks (archived included, deleted not) holding the option, alone or in a list. */
  async countOptionTasks(projectId: string, propertyId: string, optionId: string): Promise<number> {
    const row = await this.db.one<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM tasks WHERE project_id = ${projectId} AND deleted_at IS NULL AND "values"->${propertyId}::text ? ${optionId}::text`,
    );
    return row?.n ?? 0;
  }

  private async guardName(clash: OptionClash, write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (pgErrorCode(error).constraint === 'options_name') fail('option.duplicate', clash);
      throw error;
    }
  }
}
