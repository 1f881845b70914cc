/** Most slots a wheel turns through: one tick a second at the 25-second ping. */
const MAX_SLOTS = 25;

/**
 * One timer pings every open stream every `periodMs`: the streams sit in slots, one tick pings
 * one slot, so a stream is pinged a period after it joins and every period after that, and ten
 * thousand streams cost one timer and a few pings a tick instead of a timer each.
 */
export class PingWheel<T> {
  private readonly slots: Set<T>[];
  /** The slot pinged last: a stream joining it waits a whole turn. */
  private cursor = 0;
  private size = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly periodMs: number,
    private readonly ping: (item: T) => void,
  ) {
    const slots = Math.max(1, Math.min(MAX_SLOTS, Math.floor(periodMs / 1000)));
    this.slots = Array.from({ length: slots }, () => new Set<T>());
  }

  /** The slot `item` joined, for `remove`. */
  add(item: T): number {
    this.slots[this.cursor].add(item);
    this.size++;
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), this.periodMs / this.slots.length);
      this.timer.unref();
    }
    return this.cursor;
  }

  remove(item: T, slot: number): void {
    if (!this.slots[slot]?.delete(item)) return;
    if (--this.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private tick(): void {
    this.cursor = (this.cursor + 1) % this.slots.length;
    for (const item of this.slots[this.cursor]) this.ping(item);
  }
}
