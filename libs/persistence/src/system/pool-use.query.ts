import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import type { PoolUse } from '@board/kernel';
import { Database } from '../database';
import { DatabaseLanes } from '../lanes';

/** The requests' and the background pools as they are now (counted by the driver; no statement). */
@Injectable()
export class PoolUseQuery {
  constructor(
    private readonly db: Database,
    private readonly lanes: DatabaseLanes,
  ) {}

  read(): PoolUse[] {
    const requests = this.db.requestsPool;
    return [...(requests ? [use('requests', requests)] : []), use('background', this.lanes.background)];
  }
}

function use(pool: PoolUse['pool'], p: Pool): PoolUse {
  return { pool, open: p.totalCount, idle: p.idleCount, waiting: p.waitingCount, max: p.options.max ?? 0 };
}
