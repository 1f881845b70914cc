import type { PoolUse } from '@board/kernel';

/** The requests' and the background pools as they are now, for the metrics scrape. */
export abstract class PoolUseQuery {
  abstract read(): PoolUse[];
}
