import { codeAt, digestOf, readSecondStepCode as code, User } from '@board/accounts';
import { DomainError } from '@board/kernel';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { PlainPasswordHasher } from '../../../../test/support/in-memory/password-hasher';
import { InMemoryTotpRepository } from '../../../../test/support/in-memory/totp-repository';
import { InMemoryUserRepository } from '../../../../test/support/in-memory/user-repository';
import { RecordingUnitOfWork } from '../../../../test/support/recording-unit-of-work';
import { refusalCode } from '../../../../test/support/refusal-code';
import { TotpService } from './totp.service';

function setUp() {
  const repo = new InMemoryTotpRepository();
  const users = new InMemoryUserRepository();
  const uow = new RecordingUnitOfWork();
  const clock = new SteppedClock(new Date('2026-11-26T12:00:05Z'));
  const service = new TotpService(repo, users, new PlainPasswordHasher(), uow, clock);
  const ann = users.put(User.registerPerson({ id: 'ann', email: 'ann@example.com', name: 'Ann', passwordHash: 'hashed:long enough', now: clock.now() }));
  const on = async () => {
    const { secret } = await service.setup(ann.id, 'ann@example.com');
    const { recoveryCodes } = await service.enable(ann.id, code(codeAt(secret, clock.now())));
    return { secret, recoveryCodes };
  };
  return { repo, users, uow, clock, service, ann, on };
}

describe('TotpService', () => {
  it('sets up a pending secret, turns on with a right code and keeps recovery codes as digests; every write silent', async () => {
    const { repo, uow, service, ann, on } = setUp();
    expect(await refusalCode(service.enable(ann.id, code('123456')))).toBe('totp.setup_first');
    const { recoveryCodes } = await on();
    expect(recoveryCodes).toHaveLength(10);
    expect([...(repo.recovery.get(ann.id)?.keys() ?? [])]).toEqual(recoveryCodes.map(digestOf));
    expect(await refusalCode(service.setup(ann.id, 'x'))).toBe('totp.on_already');
    expect(uow.writes.every((w) => w.events.length === 0)).toBe(true);
  });

  it('refuses a wrong code on enable', async () => {
    const { service, ann } = setUp();
    await service.setup(ann.id, 'ann@example.com');
    expect(await refusalCode(service.enable(ann.id, code('000000')))).toBe('totp.code_wrong');
  });

  it('asks for a code at sign-in, refuses a wrong or spent one, takes a recovery code once', async () => {
    const { clock, service, ann, on } = setUp();
    expect(await service.signInStep(ann.id, code(undefined))).toBe('none');
    const { secret, recoveryCodes } = await on();
    const needs = await service.signInStep(ann.id, code(undefined)).catch((e: DomainError) => e);
    expect(needs).toMatchObject({ code: 'totp.code_needed', extra: { needsCode: true } });
    expect(await refusalCode(service.signInStep(ann.id, code(codeAt(secret, clock.now()))))).toBe('totp.login_code_wrong');
    clock.advance(30_000);
    expect(await service.signInStep(ann.id, code(codeAt(secret, clock.now())))).toBe('code');
    expect(await refusalCode(service.signInStep(ann.id, code(codeAt(secret, clock.now()))))).toBe('totp.login_code_wrong');
    expect(await service.signInStep(ann.id, code(recoveryCodes[0]))).toBe('recovery');
    expect(await refusalCode(service.signInStep(ann.id, code(recoveryCodes[0])))).toBe('totp.login_code_wrong');
  });

  it('turns off only with the password in use and a code', async () => {
    const { repo, clock, service, ann, on } = setUp();
    const { secret } = await on();
    clock.advance(30_000);
    expect(await refusalCode(service.disable(ann.id, 'wrong password', code(codeAt(secret, clock.now()))))).toBe('account.wrong_password');
    expect(await refusalCode(service.disable(ann.id, 'long enough', code('000000')))).toBe('totp.code_wrong');
    await service.disable(ann.id, 'long enough', code(codeAt(secret, clock.now())));
    expect((await repo.state(ann.id)).secret).toBeNull();
    expect(await service.signInStep(ann.id, code(undefined))).toBe('none');
  });

  it('turns off with a code alone for an account without a password (single sign-on)', async () => {
    const { repo, users, clock, service, ann, on } = setUp();
    users.put(User.restore({ ...ann.snapshot, passwordHash: null }));
    const { secret } = await on();
    clock.advance(30_000);
    expect(await refusalCode(service.disable(ann.id, null, code('000000')))).toBe('totp.code_wrong');
    await service.disable(ann.id, null, code(codeAt(secret, clock.now())));
    expect((await repo.state(ann.id)).secret).toBeNull();
  });
});
