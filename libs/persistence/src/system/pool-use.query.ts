import type { PoolUse, ReadRouting } from '@board/kernel';

/** The database pools as they are now, and where reads went (read replicas), for the metrics scrape. */
export abstract class PoolUseQuery {
  /** The requests', the background and each read replica's pool. */
  abstract read(): PoolUse[];
  /** Null without read replicas. */
  abstract routing(): ReadRouting | null;
}
