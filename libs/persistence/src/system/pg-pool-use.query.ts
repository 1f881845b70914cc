import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import type { PoolUse, ReadRouting } from '@board/kernel';
import { Database } from '../database';
import { DatabaseLanes } from '../lanes';
import { PoolUseQuery } from './pool-use.query';

/** The pools as the driver counts them, and the read router's own measurements (no statement). */
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
    const replicas = this.lanes.replicas.namedPools.map(({ name, pool }) => use(name, pool));
    return [...(requests ? [use('requests', requests)] : []), use('background', this.lanes.background), ...replicas];
  }

  routing(): ReadRouting | null {
    return this.lanes.replicas.enabled ? this.lanes.replicas.routing() : null;
  }
}

function use(pool: PoolUse['pool'], p: Pool): PoolUse {
  return { pool, open: p.totalCount, idle: p.idleCount, waiting: p.waitingCount, max: p.options.max ?? 0 };
}
