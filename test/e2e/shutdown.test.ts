import { Logger } from '@nestjs/common';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { createDatabase } from '../support/database';
import { expectStatus } from '../support/fixtures';
import { startMailCatcher } from '../support/smtp';
import { addMember, Client, createProject, registerPerson, startTestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A graceful stop lets open requests finish, refuses new ones and closes the pool. */
describe('graceful shutdown', () => {
  it('finishes a request that is under way, then stops answering and closes the pool', async () => {
    const t = await startTestApp();
    const person = await registerPerson(t);
    const anon = new Client(t.api);
    // A login spends a while in argon2: it is still running when the stop begins.
    const open = anon.post('/auth/login', { email: person.email, password: person.password });
    await new Promise((r) => setTimeout(r, 30));
    const closing = t.close();
    const answer = await open;
    expect(answer.status).toBe(200);
    expect(answer.body.user.email).toBe(person.email);
    await closing;
    await expect(fetch(`${t.api}/health`)).rejects.toThrow();
    const { DataSource } = await import('typeorm');
    expect(t.app.get(DataSource).isInitialized).toBe(false);
  });
});

/** How long the receiver and the relay take to answer: the stop begins while both are at it. */
const SLOW_MS = 1500;

/** A webhook receiver that answers 200 `SLOW_MS` after each request; it keeps when it got them and answered. */
class SlowReceiver {
  readonly hits: number[] = [];
  readonly answered: number[] = [];
  private readonly server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      this.hits.push(Date.now());
      setTimeout(() => {
        res.writeHead(200).end('thanks');
        this.answered.push(Date.now());
      }, SLOW_MS);
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((ok) => this.server.listen(0, '127.0.0.1', ok));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }
}

describe('a shutdown with background work under way', () => {
  it('waits for the webhook try and the notification mail on their way, records both, and leaves before the pools close', async () => {
    const database = await createDatabase();
    const receiver = new SlowReceiver();
    const catcher = await startMailCatcher();
    const db = new Pool({ connectionString: database.url, max: 1 });
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      const url = await receiver.start();
      catcher.answerAfterMs = SLOW_MS;
      const t = await startTestApp({
        databaseUrl: database.url,
        env: { SERVICE_WEBHOOK_ALLOW: '127.0.0.1', SMTP_URL: catcher.url, MAIL_FROM: 'board@example.test' },
      });
      const olive = await registerPerson(t, 'Olive');
      const milo = await registerPerson(t, 'Milo');
      const project = await createProject(olive.client, 'Stopping', 'STOP');
      await addMember(olive.client, project.id, milo);
      await expectStatus(olive.client.post(`/projects/${project.id}/webhooks`, { url, kinds: ['comment'] }), 201);
      const { task } = await expectStatus(olive.client.post(`/projects/${project.id}/tasks`, { title: 'Say hello' }), 201);
      // One write, two jobs after its COMMIT: a delivery to the receiver and a mail to Milo.
      await expectStatus(olive.client.post(`/tasks/${task.id}/comments`, { body: 'look @Milo' }), 201);
      await catcher.waitFor(1);
      for (let i = 0; i < 100 && receiver.hits.length === 0; i++) await sleep(50);
      expect(receiver.hits).toHaveLength(1);

      await t.close();
      // Had the stop not waited, the answers would come after the pools closed: give them the time to.
      await sleep(Math.max(0, receiver.hits[0] + SLOW_MS + 500 - Date.now()));

      expect(receiver.answered).toHaveLength(1);
      expect(warn.mock.calls.map(([line]) => String(line)).filter((line) => /Cannot use a pool/.test(line))).toEqual([]);
      // Both were recorded: the delivery delivered with its one try, the mail gone from the outbox.
      const deliveries = (await db.query('SELECT status, tries, leased_by FROM webhook_deliveries')).rows;
      expect(deliveries).toEqual([{ status: 'delivered', tries: 1, leased_by: null }]);
      expect((await db.query('SELECT count(*)::int AS n FROM notification_mails')).rows[0].n).toBe(0);
      expect(catcher.mails).toHaveLength(1);
      // And the instance left: what it held would have been free for the others at once.
      expect((await db.query('SELECT count(*)::int AS n FROM service_instances')).rows[0].n).toBe(0);
    } finally {
      warn.mockRestore();
      await db.end();
      await receiver.stop();
      await catcher.close();
      await database.drop();
    }
  }, 60_000);
});
