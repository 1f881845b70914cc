import { Injectable } from '@nestjs/common';
import { fail } from '@board/kernel';
import { CardRow, GroupingView, OptionClash, OptionRecord, PropertyConfig, PropertyRecord, PropertyRepository, Ranked } from '@board/properties';
import { Database, pgErrorCode } from '../database';

const PROPERTY_COLUMNS = `id, project_id AS "projectId", name, type, position, config, created_at AS "createdAt"`;

export const OPTION_COLUMNS = `id, property_id AS "propertyId", name, color, position,
  to_char(starts_on, 'YYYY-MM-DD') AS "startsOn", to_char(target_on, 'YYYY-MM-DD') AS "targetOn", note,
  to_char(shipped_at, 'YYYY-MM-DD') AS "shippedAt"`;

/** Empty values (no key, null, "", []) do not count as holding a value. */
const HOLDS_VALUE = `"values" ? $2::text AND NOT ("values"->$2::text IN ('null'::jsonb, '""'::jsonb, '[]'::jsonb))`;

/** Writes and small reads of properties, options and what hangs off them (card view rows, values, views). */
@Injectable()
export class PgPropertyRepository extends PropertyRepository {
  constructor(private readonly db: Database) {
    super();
  }

  // ---- properties -------------------------------------------------------------------------

  async findProperty(projectId: string, id: string): Promise<PropertyRecord | null> {
    const row = await this.db.one<PropertyRecord>(`SELECT ${PROPERTY_COLUMNS} FROM properties WHERE project_id = $1 AND id = $2`, [projectId, id]);
    return row ? { ...row, config: row.config ?? {} } : null;
  }

  /** Every property of the project with its position (for ordering). */
  async propertyRanks(projectId: string): Promise<Ranked[]> {
    return this.db.query<Ranked>(`SELECT id, position FROM properties WHERE project_id = $1`, [projectId]);
  }

  async lastPropertyPosition(projectId: string): Promise<string | null> {
    const row = await this.db.one<{ position: string }>(
      `SELECT position FROM properties WHERE project_id = $1 ORDER BY position COLLATE "C" DESC LIMIT 1`,
      [projectId],
    );
    return row?.position ?? null;
  }

  async insertProperty(p: Omit<PropertyRecord, 'createdAt'>): Promise<PropertyRecord> {
    const row = await this.db.single<PropertyRecord>(
      `INSERT INTO properties (id, project_id, name, type, position, config) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${PROPERTY_COLUMNS}`,
      [p.id, p.projectId, p.name, p.type, p.position, JSON.stringify(p.config)],
    );
    return row;
  }

  async updateProperty(projectId: string, id: string, change: { name?: string; position?: string; config?: PropertyConfig }): Promise<void> {
    await this.db.exec(
      `UPDATE properties SET name = COALESCE($3, name), position = COALESCE($4, position), config = COALESCE($5::jsonb, config)
        WHERE project_id = $1 AND id = $2`,
      [projectId, id, change.name ?? null, change.position ?? null, change.config === undefined ? null : JSON.stringify(change.config)],
    );
  }

  /** Views of the project that group by the property, in display order. */
  async groupingViews(projectId: string, propertyId: string): Promise<GroupingView[]> {
    return this.db.query<GroupingView>(
      `SELECT id, name, kind FROM views WHERE project_id = $1 AND group_by_id = $2 ORDER BY position COLLATE "C", created_at, id`,
      [projectId, propertyId],
    );
  }

  /**
   * Removes the property and everything of it: its options, every task's value (deleted tasks
   * too, so a restore brings nothing dead back), its card view rows, a doneWhen naming it and the
   * remembered grouping of views that are not boards.
   */
  async deleteProperty(projectId: string, propertyId: string): Promise<void> {
    await this.db.exec(`UPDATE views SET group_by_id = NULL WHERE project_id = $1 AND group_by_id = $2`, [projectId, propertyId]);
    await this.db.exec(
      `UPDATE views SET card_view = card_view #- ARRAY['rows', $2::text]
        WHERE project_id = $1 AND card_view IS NOT NULL AND card_view->'rows' ? $2`,
      [projectId, propertyId],
    );
    await this.db.exec(
      `UPDATE projects SET card_view = card_view #- ARRAY['rows', $2::text],
              done_when = CASE WHEN done_when->>'propertyId' = $2 THEN NULL ELSE done_when END
        WHERE id = $1`,
      [projectId, propertyId],
    );
    await this.db.exec(`UPDATE tasks SET "values" = "values" - $2::text WHERE project_id = $1 AND "values" ? $2`, [projectId, propertyId]);
    await this.db.exec(`DELETE FROM options WHERE project_id = $1 AND property_id = $2`, [projectId, propertyId]);
    await this.db.exec(`DELETE FROM properties WHERE project_id = $1 AND id = $2`, [projectId, propertyId]);
  }

  /** Tasks (archived included, deleted not) holding a real value of the property. */
  async countValues(projectId: string, propertyId: string): Promise<number> {
    const row = await this.db.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM tasks WHERE project_id = $1 AND deleted_at IS NULL AND ${HOLDS_VALUE}`,
      [projectId, propertyId],
    );
    return row?.n ?? 0;
  }

  // ---- card view --------------------------------------------------------------------------

  async cardRow(projectId: string, propertyId: string): Promise<CardRow | null> {
    const row = await this.db.one<{ row: CardRow | null }>(`SELECT card_view->'rows'->$2 AS row FROM projects WHERE id = $1`, [projectId, propertyId]);
    return row?.row ?? null;
  }

  async setCardRow(projectId: string, propertyId: string, row: CardRow): Promise<void> {
    await this.db.exec(
      `UPDATE projects
          SET card_view = COALESCE(card_view, '{}'::jsonb)
                || jsonb_build_object('rows', COALESCE(card_view->'rows', '{}'::jsonb) || jsonb_build_object($2::text, $3::jsonb))
        WHERE id = $1`,
      [projectId, propertyId, JSON.stringify({ place: row.place, mode: row.mode })],
    );
  }

  // ---- options ----------------------------------------------------------------------------

  /** The property's options in display order. */
  async options(projectId: string, propertyId: string): Promise<OptionRecord[]> {
    return this.db.query<OptionRecord>(
      `SELECT ${OPTION_COLUMNS} FROM options WHERE project_id = $1 AND property_id = $2 ORDER BY position COLLATE "C", id`,
      [projectId, propertyId],
    );
  }

  async findOption(projectId: string, optionId: string): Promise<OptionRecord | null> {
    return this.db.one<OptionRecord>(`SELECT ${OPTION_COLUMNS} FROM options WHERE project_id = $1 AND id = $2`, [projectId, optionId]);
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
      this.db.exec(
        `INSERT INTO options (id, project_id, property_id, name, color, position, starts_on, target_on, note)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [o.id, projectId, o.propertyId, o.name, o.color, o.position, o.startsOn, o.targetOn, o.note],
      ),
    );
  }

  async updateOption(projectId: string, o: OptionRecord, clash: OptionClash): Promise<void> {
    await this.guardName(clash, () =>
      this.db.exec(
        `UPDATE options SET name = $3, color = $4, position = $5, starts_on = $6, target_on = $7, note = $8, shipped_at = $9
          WHERE project_id = $1 AND id = $2`,
        [projectId, o.id, o.name, o.color, o.position, o.startsOn, o.targetOn, o.note, o.shippedAt],
      ),
    );
  }

  /**
   * Deletes an option and scrubs it from every task value (deleted tasks too): a select holding
   * it loses the key, a multi-select drops it from its list (and the key when the list empties).
   * A doneWhen naming it forgets it.
   */
  async deleteOption(projectId: string, propertyId: string, optionId: string): Promise<void> {
    await this.db.exec(
      `UPDATE tasks SET "values" = CASE
           WHEN jsonb_typeof("values"->$2::text) = 'array' AND ("values"->$2::text) - $3::text <> '[]'::jsonb
             THEN jsonb_set("values", ARRAY[$2::text], ("values"->$2::text) - $3::text)
           ELSE "values" - $2::text
         END
        WHERE project_id = $1 AND "values"->$2::text ? $3::text`,
      [projectId, propertyId, optionId],
    );
    await this.db.exec(
      `UPDATE projects SET done_when = jsonb_set(done_when, '{optionIds}', (done_when->'optionIds') - $2::text)
        WHERE id = $1 AND done_when->'optionIds' ? $2`,
      [projectId, optionId],
    );
    await this.db.exec(`DELETE FROM options WHERE project_id = $1 AND id = $2`, [projectId, optionId]);
  }

  /** Tasks (archived included, deleted not) holding the option, alone or in a list. */
  async countOptionTasks(projectId: string, propertyId: string, optionId: string): Promise<number> {
    const row = await this.db.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM tasks WHERE project_id = $1 AND deleted_at IS NULL AND "values"->$2::text ? $3::text`,
      [projectId, propertyId, optionId],
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
