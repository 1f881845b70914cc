import { ThrottleFamily, ThrottleRepository, ThrottleTake } from '@board/accounts';

/** ThrottleRepository in memory: the counted tries, by family and subject. */
export class InMemoryThrottleRepository extends ThrottleRepository {
  readonly tries: { id: string; family: ThrottleFamily; subject: string; at: Date }[] = [];
  private next = 0;

  async take(family: ThrottleFamily, subject: string, at: Date, since: Date, limit: number): Promise<ThrottleTake> {
    const counted = this.tries.filter((t) => t.family === family && t.subject === subject && t.at >= since).sort((a, b) => b.at.getTime() - a.at.getTime());
    if (counted.length >= limit) return { counted: false, oldest: counted[limit - 1].at };
    const id = `try-${++this.next}`;
    this.tries.push({ id, family, subject, at });
    return { counted: true, id };
  }

  async release(id: string): Promise<void> {
    const at = this.tries.findIndex((t) => t.id === id);
    if (at >= 0) this.tries.splice(at, 1);
  }

  async prune(before: Date): Promise<number> {
    const kept = this.tries.filter((t) => t.at >= before);
    const pruned = this.tries.length - kept.length;
    this.tries.splice(0, this.tries.length, ...kept);
    return pruned;
  }
}
