import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import type { PoolUse } from '@board/kernel';
import { Database } from '../database';
import { DatabaseLanes } from '../lanes';
import { PoolUseQuery } from './pool-use.query';

/** The requests' and the background pools as the driver counts them (no statement). */
@Injectable()
export class PgPoolUseQuery extends PoolUseQuery {
  constructor(
    private readonly db: Database,
    private readonly lanes: DatabaseLanes,
  ) {
    super();
  }

  read(): PoolUse[] {
    const requests = this.db.requestsPool;
    return [...(requests ? [use('requests', requests)] : []), use('background', this.lanes.background)];
  }
}

function use(pool: PoolUse['pool'], p: Pool): PoolUse {
  return { pool, open: p.totalCount, idle: p.idleCount, waiting: p.waitingCount, max: p.options.max ?? 0 };
}
