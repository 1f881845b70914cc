/**
 * Issue #30, point 3: an instance's death costs seconds. Instance A runs as a process of its own
 * and is killed with SIGKILL while webhook deliveries are under way; instance B, on the same
 * database, sends them again — the same delivery ids — within 10 s of the kill, and sends the ones
 * A had claimed but not started exactly once.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { HOUR } from '@board/kernel';
import { createDatabase } from '../support/database';
import { OffsetClock } from '../support/in-memory/clock';
import { ServiceProcess } from '../support/service-process';
import { Client, createProject, startTestApp, TestApp, uniqueEmail } from '../support/test-app';

const ALLOW = { SERVICE_WEBHOOK_ALLOW: '127.0.0.1' };

/** While `holding`, holds every request open (the tries stay under way); then answers 200. */
class HoldingReceiver {
  readonly hits: { id: string; at: number }[] = [];
  holding = true;
  private readonly held: ServerResponse[] = [];
  private readonly server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      this.hits.push({ id: String(req.headers['x-service-delivery']), at: Date.now() });
      if (this.holding) this.held.push(res);
      else res.writeHead(200).end('thanks');
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((ok) => this.server.listen(0, '127.0.0.1', ok));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  count(id: string): number {
    return this.hits.filter((h) => h.id === id).length;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }
}

describe('an instance killed mid-work', () => {
  let database: Awaited<ReturnType<typeof createDatabase>>;
  let a: ServiceProcess | undefined;
  let b: TestApp | undefined;
  const receiver = new HoldingReceiver();

  beforeAll(async () => {
    database = await createDatabase();
  });
  afterAll(async () => {
    await a?.kill();
    await b?.close();
    await receiver.stop();
    await database.drop();
  });

  it('has the webhook deliveries it had under way sent again by another instance within 10 s, same ids, the others once', async () => {
    const url = await receiver.start();
    a = new ServiceProcess({ DATABASE_URL: database.url, ...ALLOW });
    const owner = new Client(`${await a.ready(60_000)}api`);
    // B's clock is an hour behind until A has claimed: the deliveries come due for B only then, so
    // A is the instance that sends them first.
    const clock = new OffsetClock();
    clock.advance(-HOUR);
    b = await startTestApp({ databaseUrl: database.url, env: ALLOW, clock });

    expect((await owner.post('/auth/register', { email: uniqueEmail('olive'), name: 'Olive', password: 'correct horse' })).status).toBe(201);
    const project = await createProject(owner, 'Takeover', 'TAKE');
    expect((await owner.post(`/projects/${project.id}/webhooks`, { url, kinds: ['archive'] })).status).toBe(201);
    const taskIds: string[] = [];
    for (let i = 1; i <= 20; i++) taskIds.push((await owner.post<{ task: { id: string } }>(`/projects/${project.id}/tasks`, { title: `Task ${i}` })).body.task.id);
    // One transaction, twenty deliveries: A claims them in one go and starts as many as it sends at once.
    expect((await owner.post(`/projects/${project.id}/archive`, { taskIds })).body).toEqual({ archived: 20 });
    for (let i = 0; i < 100 && receiver.hits.length === 0; i++) await sleep(50);
    await sleep(500);
    const underWay = new Set(receiver.hits.map((h) => h.id));
    expect(underWay.size).toBeGreaterThan(0);
    expect(receiver.hits).toHaveLength(underWay.size);

    clock.offset = 0;
    receiver.holding = false;
    await a.kill();
    const killed = Date.now();
    const all = async () => (await b!.sql.query<{ id: string; status: string; tries: number }>('SELECT id, status, tries FROM webhook_deliveries')).rows;
    for (let i = 0; i < 300 && (await all()).some((d) => d.status !== 'delivered'); i++) await sleep(50);
    // Every delivery went out from B with one recorded try, the last within 10 s of the kill.
    const deliveries = await all();
    expect(deliveries).toHaveLength(20);
    expect(deliveries.filter((d) => d.status !== 'delivered' || d.tries !== 1)).toEqual([]);
    expect(Math.max(...receiver.hits.slice(underWay.size).map((h) => h.at)) - killed).toBeLessThan(10_000);
    // Only the ones under way reached the receiver twice.
    await sleep(1500);
    for (const d of deliveries) expect([d.id, receiver.count(d.id)]).toEqual([d.id, underWay.has(d.id) ? 2 : 1]);
    expect(receiver.hits).toHaveLength(20 + underWay.size);
  }, 120_000);
});
