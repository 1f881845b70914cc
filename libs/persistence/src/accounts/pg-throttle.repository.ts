import { Injectable } from '@nestjs/common';
import { ThrottleFamily, ThrottleRepository, ThrottleTake } from '@board/accounts';
import { Database } from '../database';
import { sql } from '../sql';
import { THROTTLE_TAKE_COLUMNS, ThrottleTakeRow, toThrottleTake } from './throttle-failures.table';

/**
 * Try counters live in PostgreSQL, so every instance behind a load balancer sees the same count.
 * A take is one round trip to `board_throttle_take` (migration 1764460800000), which counts and
 * inserts under an advisory lock per family and subject: concurrent tries cannot all read "nine".
 */
@Injectable()
export class PgThrottleRepository extends ThrottleRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async take(family: ThrottleFamily, subject: string, at: Date, since: Date, limit: number): Promise<ThrottleTake> {
    const row = await this.db.single<ThrottleTakeRow>(
      sql`SELECT ${THROTTLE_TAKE_COLUMNS} FROM board_throttle_take(${family}, ${subject}, ${at}, ${since}, ${limit})`,
      { prepare: true },
    );
    return toThrottleTake(row);
  }

  async release(id: string): Promise<void> {
    await this.db.exec(sql`DELETE FROM throttle_failures WHERE id = ${id}`, { prepare: true });
  }

  /** Forgets failures older than the window (called by the retention sweep). */
  async prune(before: Date): Promise<number> {
    return (await this.db.exec(sql`DELETE FROM throttle_failures WHERE at < ${before}`)).count;
  }
}
