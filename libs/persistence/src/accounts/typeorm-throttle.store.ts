import { Injectable } from '@nestjs/common';
import { ThrottleFamily, ThrottleStore } from '@board/accounts';
import { Database } from '../database';

/** Failure counters live in PostgreSQL, so every instance behind a load balancer sees the same count. */
@Injectable()
export class TypeormThrottleStore extends ThrottleStore {
  constructor(private readonly db: Database) {
    super();
  }

  async recent(family: ThrottleFamily, subject: string, since: Date, limit: number): Promise<Date[]> {
    const rows = await this.db.query<{ at: Date }>(
      `SELECT at FROM throttle_failures WHERE family = $1 AND subject = $2 AND at >= $3 ORDER BY at DESC LIMIT $4`,
      [family, subject, since, limit],
    );
    return rows.map((r) => r.at).reverse();
  }

  async record(family: ThrottleFamily, subject: string, at: Date): Promise<void> {
    await this.db.exec('INSERT INTO throttle_failures (family, subject, at) VALUES ($1, $2, $3)', [family, subject, at]);
  }

  /** Forgets failures older than the window (called by the retention sweep). */
  async prune(before: Date): Promise<number> {
    return (await this.db.exec('DELETE FROM throttle_failures WHERE at < $1', [before])).count;
  }
}
