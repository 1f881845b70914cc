import { SecurityEvent, SecurityLog, User } from '@board/accounts';
import type { FastifyRequest } from 'fastify';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { InMemoryUserRepository } from '../../../../test/support/in-memory/user-repository';
import { RecordingUnitOfWork } from '../../../../test/support/recording-unit-of-work';
import { SecurityLogService } from './security-log.service';

class ListedLog extends SecurityLog {
  readonly events: { userId: string; event: SecurityEvent }[] = [];
  async append(userId: string, event: SecurityEvent): Promise<void> {
    this.events.push({ userId, event });
  }
  async recent(userId: string, limit: number): Promise<SecurityEvent[]> {
    return this.events.filter((e) => e.userId === userId).map((e) => e.event).reverse().slice(0, limit);
  }
}

const request = (userAgent: unknown) => ({ headers: { 'user-agent': userAgent }, ip: '192.0.2.7', socket: { remoteAddress: '192.0.2.7' } }) as unknown as FastifyRequest;

describe('SecurityLogService', () => {
  function setUp() {
    const log = new ListedLog();
    const users = new InMemoryUserRepository();
    const uow = new RecordingUnitOfWork();
    const clock = new SteppedClock();
    const service = new SecurityLogService(log, users, uow, clock);
    const ann = users.put(User.registerPerson({ id: 'ann', email: 'ann@example.com', name: 'Ann', passwordHash: '-', now: clock.now() }));
    return { log, uow, clock, service, ann };
  }

  it('notes an event with the address and the user agent cut to 200 characters, in a silent write', async () => {
    const { log, uow, service, ann } = setUp();
    await service.note(ann.id, 'signed_in', request('x'.repeat(300)));
    expect(log.events).toHaveLength(1);
    expect(log.events[0].event).toMatchObject({ kind: 'signed_in', userAgent: 'x'.repeat(200) });
    expect(uow.writes).toHaveLength(1);
    expect(uow.writes[0].events).toEqual([]);
  });

  it('notes a refused sign-in for the person the email names, and nothing for an unknown email', async () => {
    const { log, service, ann } = setUp();
    await service.noteFailedSignIn('  ANN@example.com ', request('b'));
    await service.noteFailedSignIn('nobody@example.com', request('b'));
    await service.noteFailedSignIn(42, request('b'));
    expect(log.events.map((e) => [e.userId, e.event.kind])).toEqual([[ann.id, 'sign_in_failed']]);
  });

  it('reads the newest first as the route answers them', async () => {
    const { clock, service, ann } = setUp();
    await service.note(ann.id, 'signed_in', request('a'));
    clock.advance(1000);
    await service.note(ann.id, 'signed_out', request('a'));
    const { events } = await service.recent(ann.id);
    expect(events.map((e) => e.kind)).toEqual(['signed_out', 'signed_in']);
    expect(typeof events[0].at).toBe('string');
  });
});
