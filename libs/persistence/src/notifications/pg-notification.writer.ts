import { Injectable } from '@nestjs/common';
import { WriteEvent } from '@board/kernel';
import { Mentionable, mentionProjects, NotificationIntent, PeopleOf } from '@board/notifications';
import { Database } from '../database';
import { sql } from '../sql';
import { intentCte, intentValues, NOTIFICATION_COLUMNS, NOTIFICATION_CTES } from './notifications.sql';

/**
 * Writes the notifications of a write's declared events inside its transaction (their intents
 * come from `eventWrites`): the unit of work's adapter (`PgUnitOfWork`), never called by
 * application code. One statement, plus one read of the project's people when a comment holds an `@`.
 */
@Injectable()
export class PgNotificationWriter {
  constructor(private readonly db: Database) {}

  /** Who a mention may name, read only when a comment of the events holds an `@`. */
  async peopleFor(events: readonly WriteEvent[]): Promise<PeopleOf> {
    const people = await this.peopleOf(mentionProjects(events));
    return (projectId) => people.get(projectId) ?? [];
  }

  async write(intents: readonly NotificationIntent[]): Promise<void> {
    if (intents.length === 0) return;
    await this.db.single(sql`WITH ${intentCte(intentValues(intents))}, ${NOTIFICATION_CTES} SELECT ${NOTIFICATION_COLUMNS}`);
  }

  /** The human members of these projects, by project. */
  private async peopleOf(projectIds: readonly string[]): Promise<Map<string, Mentionable[]>> {
    const byProject = new Map<string, Mentionable[]>();
    if (projectIds.length === 0) return byProject;
    const rows = await this.db.query<{ projectId: string; id: string; name: string }>(
      sql`SELECT m.project_id AS "projectId", u.id, u.name FROM members m JOIN users u ON u.id = m.user_id AND u.kind = 'human'
           WHERE m.project_id = ANY(${projectIds}::uuid[])`,
    );
    for (const r of rows) byProject.set(r.projectId, [...(byProject.get(r.projectId) ?? []), { id: r.id, name: r.name }]);
    return byProject;
  }
}
