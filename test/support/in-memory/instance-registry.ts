import { setTimeout as sleep } from 'node:timers/promises';
import { BeatResult, InstanceRegistry } from '@board/kernel';

/** InstanceRegistry in memory: which ids are alive, with a database that can be slow or down. */
export class InMemoryInstanceRegistry extends InstanceRegistry {
  readonly alive = new Set<string>();
  readonly left: string[] = [];
  beats = 0;
  /** Every call fails while set. */
  down = false;
  /** Every call takes this long first. */
  delayMs = 0;
  /** Dead instances the next beat removes. */
  deadNext = 0;

  async enter(id: string): Promise<void> {
    await this.answer();
    this.alive.add(id);
  }

  async beat(id: string): Promise<BeatResult> {
    await this.answer();
    this.beats++;
    const dead = this.deadNext;
    this.deadNext = 0;
    return { alive: this.alive.has(id), dead };
  }

  async leave(id: string): Promise<void> {
    await this.answer();
    this.alive.delete(id);
    this.left.push(id);
  }

  private async answer(): Promise<void> {
    if (this.delayMs > 0) await sleep(this.delayMs);
    if (this.down) throw new Error('the database does not answer');
  }
}
