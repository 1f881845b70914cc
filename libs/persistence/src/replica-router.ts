import { Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import type { PoolUse, ReadRouting } from '@board/kernel';
import { endPool } from './pool-sessions';

/** A replica as logs and metrics name it: `replica 1`, … in DATABASE_READ_URL's order, never its address. */
type ReplicaName = Extract<PoolUse['pool'], `replica ${number}`>;
import { PRIMARY_POSITION_TEXT, readWalPosition, REPLAYED_POSITION_TEXT, WalPosition } from './wal-position';

/** What the router asks a server: one statement at a time (a pool, or a fake in unit tests). */
export interface PositionSource {
  query(text: string): Promise<{ rows: Array<{ position: string | null }> }>;
  /** Closes it (a pool) at shutdown. */
  end?(): Promise<void>;
}

export interface ReplicaServer {
  /** The replica's pool for reads that only show data. */
  pool: Pool;
  /** Its own connection for the router's samples, so a busy read pool never delays a measurement. */
  watch: PositionSource;
}

export interface ReplicaRouterSettings {
  /** DATABASE_READ_MAX_LAG_MS: the most a read without a position of its own may lag the primary. */
  maxLagMs: number;
  /** How often the primary and the replicas are sampled (default 50 ms). */
  sampleMs?: number;
  /** How often the replicas are sampled while a read or a notice waits for one (default 5 ms). */
  pollMs?: number;
  /**
   * How long a caller's read waits for a replica to replay its write before it goes to the primary
   * (default 100 ms, never more than maxLag). A replica that keeps up replays within milliseconds;
   * one that has not after this lags, and a bound set wide for the others' sake (seconds, say)
   * must not become the writer's wait.
   */
  waitMs?: number;
  /** A monotonic clock in milliseconds (tests drive their own). */
  now?: () => number;
}

interface Sample {
  /** When the sample was asked: every commit made before then is at or before `position`. */
  at: number;
  position: WalPosition;
}

class Replica {
  replayed: WalPosition | null = null;
  /** When the newest sample that answered was asked. */
  sampledAt = -Infinity;
  served = 0;
  /** What was last logged about it, so a state is logged once, not every 50 ms. */
  told: 'ok' | 'unreachable' | 'not a replica' = 'ok';

  constructor(
    readonly server: ReplicaServer,
    readonly name: ReplicaName,
  ) {}
}

interface ReadWaiter {
  floor: WalPosition;
  deadline: number;
  resolve(replica: Replica | null): void;
}

interface SettleWaiter {
  target: WalPosition;
  deadline: number;
  resolve(): void;
}

/**
 * Which server a read that only shows data goes to (DATABASE_READ_URL), from measurements this
 * instance takes itself: nothing is shared between instances but the database, so an instance
 * that starts or dies changes nothing for the others.
 *
 * Every `sampleMs` it asks the primary for its WAL insert position P (noting when it asked, t) and
 * each replica for the position R it has replayed. A replica that has replayed P holds every commit
 * made before t, so it is *current as of* the newest t whose P ≤ R, and a read may go to it only
 * while now − that t ≤ maxLag: a read without a position of its own is never staler than the
 * bound. A caller that wrote carries its write's position (the floor): its read goes to a current
 * replica that has replayed the floor; while none has, the replicas are sampled every `pollMs`
 * for up to `waitMs`, then the read goes to the primary. A replica that stops answering, replays no
 * more (`pg_wal_replay_pause()`), falls behind or is promoted drops out by the same measurements.
 */
export class ReplicaRouter {
  private readonly logger = new Logger('replicas');
  private readonly replicas: Replica[];
  private readonly samples: Sample[] = [];
  private readonly readers = new Set<ReadWaiter>();
  private readonly settlers = new Set<SettleWaiter>();
  private readonly maxLagMs: number;
  private readonly sampleMs: number;
  private readonly pollMs: number;
  private readonly waitMs: number;
  private readonly now: () => number;
  private asking: { at: number; answer: Promise<WalPosition> } | null = null;
  /** The statement to ask once the one on its way answers, for the calls that came after it left. */
  private next: Promise<WalPosition> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  /** Sampling on its own timer (start); a router never started is sampled by hand (unit tests). */
  private started = false;
  private stopped = false;
  private turn = 0;
  private primaryServed = 0;
  private primaryTold: 'ok' | 'unreachable' = 'ok';

  constructor(
    private readonly primary: PositionSource,
    replicas: ReplicaServer[],
    settings: ReplicaRouterSettings,
  ) {
    this.replicas = replicas.map((server, i) => new Replica(server, `replica ${i + 1}`));
    this.maxLagMs = settings.maxLagMs;
    this.sampleMs = settings.sampleMs ?? 50;
    this.pollMs = settings.pollMs ?? 5;
    this.waitMs = Math.min(settings.waitMs ?? 100, settings.maxLagMs);
    this.now = settings.now ?? (() => performance.now());
  }

  /** A router without replicas: every read stays on the primary and nothing is measured. */
  static none(): ReplicaRouter {
    return new ReplicaRouter({ query: () => Promise.reject(new Error('no replicas')) }, [], { maxLagMs: 0 });
  }

  /** Whether any replica is configured: without one nothing here runs and every read stays on the primary. */
  get enabled(): boolean {
    return this.replicas.length > 0;
  }

  /** Reads that only show data, by where they went (decisions, fallbacks to the primary included). */
  get served(): { primary: number; replicas: number[] } {
    return { primary: this.primaryServed, replicas: this.replicas.map((r) => r.served) };
  }

  /** Each replica as measured now, and where the reads went (the metrics scrape). */
  routing(): ReadRouting {
    const now = this.now();
    return {
      primaryServed: this.primaryServed,
      replicas: this.replicas.map((r) => {
        const asOf = this.currentAsOf(r, now);
        return { replica: r.name, lagSeconds: Number.isFinite(asOf) ? Math.max(0, now - asOf) / 1000 : null, current: now - asOf <= this.maxLagMs, served: r.served };
      }),
    };
  }

  /** Each replica's read pool by name (the metrics scrape). */
  get namedPools(): Array<{ name: ReplicaName; pool: Pool }> {
    return this.replicas.map((r) => ({ name: r.name, pool: r.server.pool }));
  }

  /** The replicas' read pools (to close them at shutdown). */
  get pools(): Pool[] {
    return this.namedPools.map((r) => r.pool);
  }

  start(): void {
    if (!this.enabled || this.started || this.stopped) return;
    this.started = true;
    void this.round();
  }

  /** Stops, then closes the replicas' pools and the router's own connections (at shutdown), and answers once they are closed. */
  async close(): Promise<void> {
    this.stop();
    if (!this.enabled) return;
    const ends = [this.primary, ...this.replicas.flatMap((r) => [r.server.watch, r.server.pool])];
    await Promise.all(ends.map((p) => endPool(p).catch(() => undefined)));
  }

  /** Stops sampling; reads still waiting go to the primary, waiting notices go out. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const reader of this.readers) reader.resolve(null);
    this.readers.clear();
    for (const settler of this.settlers) settler.resolve();
    this.settlers.clear();
  }

  /**
   * The pool a read that must show every commit up to `floor` (none: any current replica will do)
   * goes to, or null for the primary. Waits at most `waitMs` for a replica to replay the floor.
   */
  async poolFor(floor: WalPosition | null): Promise<Pool | null> {
    const replica = this.readyReplica(floor) ?? (floor !== null && this.anyCurrent() ? await this.waitForReplay(floor) : null);
    if (!replica) {
      this.primaryServed++;
      return null;
    }
    replica.served++;
    return replica.server.pool;
  }

  /** A read that went to a replica failed there (cut, cancelled by replay) and runs again on the primary. */
  countFallback(): void {
    this.primaryServed++;
  }

  /**
   * A primary position at or after every commit made before the call. Calls share statements: one
   * that arrives while a statement asked after it is on its way takes that answer; one that
   * arrives while an older statement is on its way takes the next one, asked as that one ends —
   * so under load the router's one connection answers any number of callers a round trip apart.
   */
  primaryPosition(): Promise<WalPosition> {
    const asked = this.now();
    if (this.asking && this.asking.at >= asked) return this.asking.answer;
    if (!this.asking) return this.ask();
    this.next ??= this.asking.answer.then(
      () => this.askNext(),
      () => this.askNext(),
    );
    return this.next;
  }

  private askNext(): Promise<WalPosition> {
    this.next = null;
    return this.ask();
  }

  private ask(): Promise<WalPosition> {
    const at = this.now();
    const answer = this.primary.query(PRIMARY_POSITION_TEXT).then(({ rows }) => {
      const position = readWalPosition(rows[0]?.position);
      if (position === null) throw new Error('the primary answered no WAL position');
      this.record(at, position);
      return position;
    });
    const asking = { at, answer };
    this.asking = asking;
    const done = () => {
      if (this.asking === asking) this.asking = null;
    };
    answer.then(done, done);
    return answer;
  }

  /**
   * Resolves once every replica in use shows every commit made before the call — so a read that
   * starts afterwards, by anyone on any instance, shows them — or once maxLag has passed, after
   * which no instance reads from a replica that lacks them. The stream's notices and `ready` wait
   * for this: a client that re-reads on a notice must find the change it was told of.
   */
  async settled(): Promise<void> {
    if (!this.enabled || this.stopped) return;
    const since = this.now();
    let target: WalPosition;
    try {
      target = await this.primaryPosition();
    } catch {
      // The primary does not answer: nothing can be promised about the replicas but the bound.
      return this.stopped ? undefined : this.sleepUntil(since + this.maxLagMs);
    }
    if (this.stopped) return;
    const settler: SettleWaiter = { target, deadline: since + this.maxLagMs, resolve: () => undefined };
    if (this.isSettled(settler)) return;
    return new Promise<void>((resolve) => {
      settler.resolve = resolve;
      this.settlers.add(settler);
      this.hurry();
    });
  }

  private sleepUntil(at: number): Promise<void> {
    const ms = Math.max(0, at - this.now());
    return new Promise((resolve) => setTimeout(resolve, ms).unref());
  }

  /** One round of samples, then the next after `sampleMs` (or `pollMs` while someone waits). */
  private async round(): Promise<void> {
    if (this.stopped) return;
    this.running = true;
    try {
      await this.sample();
    } finally {
      this.running = false;
      this.schedule();
    }
  }

  /** Samples the primary (when its last sample is a round old) and every replica, then answers whoever waits. */
  async sample(): Promise<void> {
    const last = this.samples.at(-1);
    if (!last || this.now() - last.at >= this.sampleMs) await this.samplePrimary();
    await Promise.all(this.replicas.map((r) => this.sampleReplica(r)));
    this.wake();
  }

  private schedule(): void {
    if (!this.started || this.stopped) return;
    const waiting = this.readers.size > 0 || this.settlers.size > 0;
    this.timer = setTimeout(() => void this.round(), waiting ? this.pollMs : this.sampleMs);
    this.timer.unref();
  }

  /** Someone waits: sample the replicas again soon rather than at the next ordinary round. */
  private hurry(): void {
    if (!this.started || this.running || this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.round(), this.pollMs);
    this.timer.unref();
  }

  private async samplePrimary(): Promise<void> {
    try {
      await this.primaryPosition();
      if (this.primaryTold !== 'ok') this.logger.log('the primary answers its WAL position again');
      this.primaryTold = 'ok';
    } catch (error) {
      if (this.primaryTold === 'ok') this.logger.warn(`cannot read the primary's WAL position (${(error as Error).message}); reads stay on the primary`);
      this.primaryTold = 'unreachable';
    }
  }

  private async sampleReplica(replica: Replica): Promise<void> {
    const asked = this.now();
    try {
      const { rows } = await replica.server.watch.query(REPLAYED_POSITION_TEXT);
      const position = readWalPosition(rows[0]?.position);
      if (position === null) {
        // Not in recovery: promoted, or an address of a primary. It must never serve reads.
        replica.replayed = null;
        this.tell(replica, 'not a replica', 'is not a replica (not in recovery); no reads go there');
        return;
      }
      replica.replayed = position;
      replica.sampledAt = asked;
      this.tell(replica, 'ok', 'answers again; reads go there while it keeps up');
    } catch (error) {
      this.tell(replica, 'unreachable', `cannot be reached (${(error as Error).message}); its reads go to the primary`);
    }
  }

  private tell(replica: Replica, state: Replica['told'], sentence: string): void {
    if (replica.told === state) return;
    replica.told = state;
    if (state === 'ok') this.logger.log(`${replica.name} ${sentence}`);
    else this.logger.warn(`${replica.name} ${sentence}`);
  }

  /** Samples are asked in order on one connection; one out of order (never seen) is dropped. */
  private record(at: number, position: WalPosition): void {
    const last = this.samples.at(-1);
    if (last && (at < last.at || position < last.position)) return;
    this.samples.push({ at, position });
    // Older samples than twice the bound cannot make a replica current any more; the newest stays.
    const horizon = at - 2 * this.maxLagMs - this.sampleMs;
    let drop = 0;
    while (drop < this.samples.length - 1 && this.samples[drop].at < horizon) drop++;
    if (drop > 0) this.samples.splice(0, drop);
  }

  /** The newest sample time whose primary position the replica has replayed (-Infinity: none, or not reachable). */
  private currentAsOf(replica: Replica, now: number): number {
    if (replica.replayed === null || now - replica.sampledAt > this.maxLagMs) return -Infinity;
    let low = 0;
    let high = this.samples.length - 1;
    let found = -Infinity;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (this.samples[mid].position <= replica.replayed) {
        found = this.samples[mid].at;
        low = mid + 1;
      } else high = mid - 1;
    }
    return found;
  }

  private isCurrent(replica: Replica, now: number): boolean {
    return now - this.currentAsOf(replica, now) <= this.maxLagMs;
  }

  private anyCurrent(): boolean {
    const now = this.now();
    return this.replicas.some((r) => this.isCurrent(r, now));
  }

  /** A current replica that has replayed `floor`, taken in turn so the reads spread. */
  private readyReplica(floor: WalPosition | null): Replica | null {
    const now = this.now();
    const ready = this.replicas.filter((r) => this.isCurrent(r, now) && (floor === null || r.replayed! >= floor));
    if (ready.length === 0) return null;
    return ready[this.turn++ % ready.length];
  }

  private waitForReplay(floor: WalPosition): Promise<Replica | null> {
    return new Promise((resolve) => {
      this.readers.add({ floor, deadline: this.now() + this.waitMs, resolve });
      this.hurry();
    });
  }

  /**
   * Whether the replicas no instance could be reading from without `target` have it: every
   * reachable replica that is current — or was, within a margin of a sample or two, since another
   * instance samples at other moments — has replayed it, or the bound has passed.
   */
  private isSettled(settler: SettleWaiter): boolean {
    const now = this.now();
    if (now >= settler.deadline) return true;
    const margin = this.maxLagMs + 2 * this.sampleMs;
    return this.replicas.every((r) => r.replayed === null || now - this.currentAsOf(r, now) > margin || r.replayed >= settler.target);
  }

  private wake(): void {
    const now = this.now();
    for (const reader of this.readers) {
      const replica = this.readyReplica(reader.floor);
      if (replica || now >= reader.deadline || !this.anyCurrent()) {
        this.readers.delete(reader);
        reader.resolve(replica);
      }
    }
    for (const settler of this.settlers) {
      if (this.isSettled(settler)) {
        this.settlers.delete(settler);
        settler.resolve();
      }
    }
  }
}
