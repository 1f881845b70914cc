import {
  AccountChange, EMAIL_MAX, NAME_MAX, PASSWORD_MIN, readColor, readEmail, readEmoji, readName, readNewPassword, readSecondStepCode, SecondStepCode, signInEmail, User,
} from '@board/accounts';
import { fail } from '@board/kernel';
import { Keeps } from '../http/dto/field-rules';

/** What the API document says of the account fields. */
const EMAIL = { type: 'string', maxLength: EMAIL_MAX };
const NEW_PASSWORD = { type: 'string', minLength: PASSWORD_MIN };
export const PROFILE_DOC = {
  name: { type: 'string', maxLength: NAME_MAX },
  color: { type: 'string' },
  emoji: { anyOf: [{ type: 'string' }, { type: 'null' }] },
};

/*
 * Register, login and reset are read by the global pipe inside their throttle (`@Throttled`, an
 * interceptor around the pipe): a refused body counts as a try where the family says so. Closed
 * sign-up and mail being off answer first, from checks (`SignupOpenCheck`, `MailOnCheck`). Each
 * body keeps what its readers answered: it is the command the service takes as it is.
 */

/** A second-step code, never refused here: judged against the secret (`readSecondStepCode`). */
const SecondStepCodeField = (required: boolean): PropertyDecorator =>
  Keeps('code', readSecondStepCode, { doc: { schema: { type: 'string' }, required } });

/** POST /auth/register: a normalised email, a new password, a name. */
export class RegisterBody {
  @Keeps('email', readEmail, { doc: { schema: EMAIL, required: true } })
  email: string;

  @Keeps('password', (value) => readNewPassword(value), { doc: { schema: NEW_PASSWORD, required: true } })
  password: string;

  @Keeps('name', (value) => readName(value, true), { doc: { schema: PROFILE_DOC.name, required: true } })
  name: string;
}

/** POST /auth/login: the email is normalised, not judged, and nothing here is refused (a wrong pair is). */
export class LoginBody {
  /** '' when it is not text: no account has it. */
  @Keeps('email', signInEmail, { doc: { schema: { type: 'string' }, required: true } })
  email: string;

  /** '' when it is not text: it matches no password. */
  @Keeps('password', (value) => (typeof value === 'string' ? value : ''), { doc: { schema: { type: 'string' }, required: true } })
  password: string;

  /** While two-step sign-in is on: the app's six digits, or a recovery code (once); null when none was sent. */
  @SecondStepCodeField(false)
  code: SecondStepCode | null;
}

/** POST /auth/totp/enable: the code judged against the pending secret, not here. */
export class TotpEnableBody {
  @SecondStepCodeField(true)
  code: SecondStepCode | null;
}

/** POST /auth/totp/disable: the password in use (null when not text: it matches none) and a code. */
export class TotpDisableBody {
  /** Absent for an account without a password (made by single sign-on): the service judges it. */
  @Keeps('password', (value) => (typeof value === 'string' ? value : null), { doc: { schema: { type: 'string', description: 'The password you use now; leave it out when your account has none (made by single sign-on).' } } })
  password: string | null;

  @SecondStepCodeField(true)
  code: SecondStepCode | null;
}

/** POST /auth/reset */
export class ResetBody {
  @Keeps('password', (value) => readNewPassword(value), { doc: { schema: NEW_PASSWORD, required: true } })
  password: string;

  /** A missing or malformed token ('' here) is a dead link, judged with the link. */
  @Keeps('token', (value) => (typeof value === 'string' ? value.trim() : ''), { doc: { schema: { type: 'string', description: 'svcr_…' }, required: true } })
  token: string;
}

/** Missing has its own sentence; then the shape of any email. */
function readForgotEmail(value: unknown): string {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) fail('forgot.email_missing');
  return readEmail(value);
}

/** POST /auth/forgot */
export class ForgotBody {
  @Keeps('forgot-email', readForgotEmail, { doc: { schema: EMAIL, required: true } })
  email: string;
}

/** PATCH /auth/me: each field kept as its reader answered it (absent stays). */
export class UpdateMeBody implements AccountChange {
  @Keeps('name', (value) => readName(value, false), { doc: { schema: PROFILE_DOC.name } })
  name?: string;

  @Keeps('color', readColor, { doc: { schema: PROFILE_DOC.color } })
  color?: string;

  @Keeps('emoji', readEmoji, { doc: { schema: PROFILE_DOC.emoji } })
  emoji?: string | null;

  @Keeps('mailNotifications', User.readMailNotifications, {
    doc: { schema: { type: 'boolean', description: 'Whether questions and mentions are mailed to you (on by default).' } },
  })
  mailNotifications?: boolean;
}

const filled = (value: unknown): boolean => typeof value === 'string' && value !== '';

/**
 * POST /auth/password: both fields first (one sentence), then the new password's length. Whether
 * `current` is needed depends on the account (one made by single sign-on has no password until it
 * sets one), so `PasswordChangeCheck` asks for it before the body is read; here `next` is needed.
 */
export class ChangePasswordBody {
  // Kept as text or null (anything else matches no password); refused only when `next` is missing.
  @Keeps(
    'current',
    (value, dto) => {
      if (!filled((dto as { next?: unknown }).next)) fail('account.password_change_incomplete');
      return typeof value === 'string' ? value : null;
    },
    { doc: { schema: { type: 'string', description: 'The password you use now; leave it out when your account has none yet (made by single sign-on).' } } },
  )
  current: string | null;

  @Keeps('next', (value) => readNewPassword(value, 'account.new_password_short'), { doc: { schema: NEW_PASSWORD, required: true } })
  next: string;
}
