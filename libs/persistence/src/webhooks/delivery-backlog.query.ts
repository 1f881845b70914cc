import type { DeliveryBacklog } from '@board/kernel';

/** The webhook outbox of every project at once, for the metrics scrape, read under `limitMs`. */
export abstract class DeliveryBacklogQuery {
  abstract read(limitMs: number): Promise<DeliveryBacklog>;
}
