import { ErrorCode, fail } from '@board/kernel';

export const PASSWORD_MIN = 8;

/** Passwords are taken as sent (never trimmed) and have no maximum. */
export function readNewPassword(value: unknown, code: ErrorCode = 'account.password_short'): string {
  if (typeof value !== 'string' || [...value].length < PASSWORD_MIN) fail(code);
  return value as string;
}

/** Hashing is a port: argon2id in production, the same in tests (it is fast enough at m=19 MiB). */
export abstract class PasswordHasher {
  abstract hash(password: string): Promise<string>;
  abstract verify(hash: string, password: string): Promise<boolean>;
  /** Burns the time of one verify, so an unknown email answers as slowly as a wrong password. */
  abstract verifyNothing(password: string): Promise<void>;
}
