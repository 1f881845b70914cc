import type { Pool } from 'pg';
import { PositionSource, ReplicaRouter } from './replica-router';
import { readWalPosition, walPositionText } from './wal-position';

/** A server that answers the position the test sets, or fails when `down`. */
class FakeServer implements PositionSource {
  position: string | null = '0/100';
  down = false;
  asked = 0;
  query(): Promise<{ rows: Array<{ position: string | null }> }> {
    this.asked++;
    if (this.down) return Promise.reject(new Error('connection refused'));
    return Promise.resolve({ rows: [{ position: this.position }] });
  }
}

const poolNamed = (name: string) => ({ name }) as unknown as Pool;

describe('ReplicaRouter', () => {
  let now: number;
  let primary: FakeServer;
  let replica: FakeServer;
  let router: ReplicaRouter;
  const replicaPool = poolNamed('replica');

  beforeEach(() => {
    now = 1000;
    primary = new FakeServer();
    replica = new FakeServer();
    router = new ReplicaRouter(primary, [{ pool: replicaPool, watch: replica }], { maxLagMs: 200, sampleMs: 50, pollMs: 5, now: () => now });
  });

  /** A round 50 ms later, as the running router would take it. */
  async function later(ms = 50): Promise<void> {
    now += ms;
    await router.sample();
  }

  it('reads the positions PostgreSQL writes, and nothing else', () => {
    expect(readWalPosition('16B/374D8A0')).toBe((0x16bn << 32n) | 0x374d8a0n);
    expect(walPositionText(readWalPosition('16b/374d8a0')!)).toBe('16B/374D8A0');
    for (const bad of ['', '0/', '/1', '1/2/3', 'G/1', '123456789/0', ' 1 / 2', '1/2;']) expect(readWalPosition(bad)).toBeNull();
    expect(readWalPosition(undefined)).toBeNull();
  });

  it('sends nothing to a replica it has not measured', async () => {
    expect(await router.poolFor(null)).toBeNull();
    expect(router.served).toEqual({ primary: 1, replicas: [0] });
  });

  it('uses a replica that has replayed what the primary had, until it is staler than the bound', async () => {
    await router.sample();
    expect(await router.poolFor(null)).toBe(replicaPool);
    // The primary moves on; the replica replays nothing more (paused).
    primary.position = '0/200';
    await later();
    await later();
    await later();
    // Current as of t=1000, now 1150: within the bound.
    expect(await router.poolFor(null)).toBe(replicaPool);
    await later();
    await later();
    // now 1250: the replica holds only what was committed before 1000.
    expect(await router.poolFor(null)).toBeNull();
    replica.position = '0/200';
    await later();
    expect(await router.poolFor(null)).toBe(replicaPool);
    expect(router.served).toEqual({ primary: 1, replicas: [3] });
  });

  it('is current as of the newest primary sample the replica has replayed, not of its own sample', async () => {
    await router.sample(); // t=1000, P=100
    primary.position = '0/200';
    replica.position = '0/150';
    await later(); // t=1050: P=200, R=150 → current as of 1000
    primary.position = '0/300';
    replica.position = '0/250';
    await later(); // t=1100: P=300, R=250 → current as of 1050
    now = 1240;
    expect(await router.poolFor(null)).toBe(replicaPool);
    now = 1260;
    expect(await router.poolFor(null)).toBeNull();
  });

  it("sends a writer's read to a replica that has replayed the write, after waiting for it", async () => {
    await router.sample();
    const floor = readWalPosition('0/180')!;
    const chosen = router.poolFor(floor);
    let answered = false;
    void chosen.then(() => (answered = true));
    await later(5);
    expect(answered).toBe(false);
    replica.position = '0/180';
    primary.position = '0/180';
    await later(5);
    expect(await chosen).toBe(replicaPool);
  });

  it("sends a writer's read to the primary when no replica replays the write within its wait (100 ms)", async () => {
    await router.sample();
    const chosen = router.poolFor(readWalPosition('0/180'));
    for (let i = 0; i < 19; i++) await later(5);
    let answered = false;
    void chosen.then(() => (answered = true));
    await Promise.resolve();
    expect(answered).toBe(false);
    await later(10);
    expect(await chosen).toBeNull();
  });

  it('does not wait for a replica when none is current', async () => {
    await router.sample();
    replica.down = true;
    now += 300;
    expect(await router.poolFor(readWalPosition('0/180'))).toBeNull();
  });

  it('never reads from a server that is not replaying (a primary, a promoted replica)', async () => {
    replica.position = null;
    await router.sample();
    expect(await router.poolFor(null)).toBeNull();
  });

  it('stops reading from a replica that no longer answers, within the bound', async () => {
    await router.sample();
    replica.down = true;
    await later(150);
    expect(await router.poolFor(null)).toBe(replicaPool);
    await later(100);
    expect(await router.poolFor(null)).toBeNull();
  });

  it('shares statements: a call takes an answer asked after it, never one asked before', async () => {
    // A primary whose answers the test releases one by one.
    const answers: Array<() => void> = [];
    let position = 0x100;
    const slow: PositionSource = {
      query: () => {
        const mine = `0/${(position += 0x10).toString(16)}`;
        return new Promise((resolve) => answers.push(() => resolve({ rows: [{ position: mine }] })));
      },
    };
    const r = new ReplicaRouter(slow, [{ pool: replicaPool, watch: replica }], { maxLagMs: 200, now: () => now });
    const first = r.primaryPosition();
    const same = r.primaryPosition(); // same moment: the statement on its way was asked at or after it
    now += 1;
    const later1 = r.primaryPosition(); // after the first left: waits for the next
    const later2 = r.primaryPosition();
    expect(answers).toHaveLength(1);
    answers[0]();
    expect(await first).toBe(0x110n);
    expect(await same).toBe(0x110n);
    await Promise.resolve();
    expect(answers).toHaveLength(2);
    answers[1]();
    expect(await later1).toBe(0x120n);
    expect(await later2).toBe(0x120n);
  });

  describe('settled (the stream waits for it)', () => {
    it('resolves at once when every replica has what the primary has', async () => {
      await router.sample();
      await router.settled();
    });

    it('waits until the replica has replayed every commit made before the call', async () => {
      await router.sample();
      primary.position = '0/300';
      let settled = false;
      const waiting = router.settled().then(() => (settled = true));
      await later(5);
      expect(settled).toBe(false);
      replica.position = '0/300';
      await later(5);
      await waiting;
    });

    it('gives up on a lagging replica at the bound: past it, no instance reads there without the commit', async () => {
      await router.sample();
      primary.position = '0/300';
      let settled = false;
      const waiting = router.settled().then(() => (settled = true));
      for (let i = 0; i < 39; i++) await later(5);
      expect(settled).toBe(false);
      await later(10);
      await waiting;
    });

    it('does not wait for a replica that is far behind or cannot be reached', async () => {
      await router.sample();
      replica.down = true;
      primary.position = '0/300';
      now += 400;
      await router.sample();
      await router.settled();
    });
  });

  it('with no replica configured, is off and sends every read to the primary', async () => {
    const none = new ReplicaRouter(primary, [], { maxLagMs: 200 });
    expect(none.enabled).toBe(false);
    await none.settled();
    expect(await none.poolFor(null)).toBeNull();
    expect(primary.asked).toBe(0);
  });
});
