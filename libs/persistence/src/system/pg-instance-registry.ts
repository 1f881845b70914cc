import { Injectable } from '@nestjs/common';
import { BeatResult, InstanceRegistry } from '@board/kernel';
import { DatabaseLanes } from '../lanes';
import { compile, Sql, sql } from '../sql';

/** The instances' rows (`service_instances`), on the beats' own connection (`DatabaseLanes.liveness`). */
@Injectable()
export class PgInstanceRegistry extends InstanceRegistry {
  constructor(private readonly lanes: DatabaseLanes) {
    super();
  }

  async enter(id: string, name: string, aliveMs: number): Promise<void> {
    await this.run(sql`INSERT INTO service_instances (id, name, alive_until) VALUES (${id}, ${name}, now() + ${aliveMs} * interval '1 millisecond')`);
  }

  /**
   * One statement: both parts read the same snapshot, so an instance keeps its own row alive or
   * finds it gone (removed as dead by another), never both.
   */
  async beat(id: string, aliveMs: number): Promise<BeatResult> {
    const [row] = await this.run<{ alive: number; dead: number }>(
      sql`WITH mine AS (
            UPDATE service_instances SET alive_until = now() + ${aliveMs} * interval '1 millisecond'
             WHERE id = ${id} AND alive_until > now() RETURNING id),
          gone AS (DELETE FROM service_instances WHERE alive_until <= now() RETURNING id)
          SELECT (SELECT count(*) FROM mine)::int AS alive, (SELECT count(*) FROM gone)::int AS dead`,
    );
    return { alive: row.alive > 0, dead: row.dead };
  }

  async leave(id: string): Promise<void> {
    await this.run(sql`DELETE FROM service_instances WHERE id = ${id}`);
  }

  private async run<T>(query: Sql): Promise<T[]> {
    const { text, values } = compile(query);
    return (await this.lanes.liveness.query(text, values)).rows as T[];
  }
}
