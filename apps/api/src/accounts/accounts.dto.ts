import { EMAIL_MAX, NAME_MAX, PASSWORD_MIN, readColor, readEmail, readEmoji, readName, readNewPassword } from '@board/accounts';
import { FieldRule, refusalOf } from '../http/dto/field-rules';
import { Accepts, Reads } from '../http/dto/reads';

/** What the API document says of the account fields. */
const EMAIL = { type: 'string', maxLength: EMAIL_MAX };
const NEW_PASSWORD = { type: 'string', minLength: PASSWORD_MIN };
export const PROFILE_DOC = {
  name: { type: 'string', maxLength: NAME_MAX },
  color: { type: 'string' },
  emoji: { anyOf: [{ type: 'string' }, { type: 'null' }] },
};

/*
 * Register, login, reset and forgot are read with `parseRequest` inside the service: their
 * refusals count towards the throttle (and closed sign-up or mail being off answer first), so
 * the global pipe, which runs before the handler, must not read them.
 */

/** POST /auth/register */
export class RegisterBody {
  @Reads('email', readEmail, { doc: { schema: EMAIL, required: true } })
  email: string;

  @Reads('password', (value) => readNewPassword(value), { doc: { schema: NEW_PASSWORD, required: true } })
  password: string;

  @Reads('name', (value) => readName(value, true), { doc: { schema: PROFILE_DOC.name, required: true } })
  name: string;
}

/** POST /auth/login: the email is normalised, not judged, and nothing here is refused (a wrong pair is). */
export class LoginBody {
  @Accepts('email', { schema: { type: 'string' }, required: true })
  email?: unknown;

  @Accepts('password', { schema: { type: 'string' }, required: true })
  password?: unknown;

  /** While two-step sign-in is on: the app's six digits, or a recovery code (once). */
  @Accepts('code', { schema: { type: 'string' } })
  code?: unknown;
}

/** POST /auth/totp/enable: the code judged against the pending secret, not here. */
export class TotpEnableBody {
  @Accepts('code', { schema: { type: 'string' }, required: true })
  code?: unknown;
}

/** POST /auth/totp/disable */
export class TotpDisableBody {
  @Accepts('password', { schema: { type: 'string' }, required: true })
  password?: unknown;

  @Accepts('code', { schema: { type: 'string' }, required: true })
  code?: unknown;
}

/** POST /auth/reset */
export class ResetBody {
  @Reads('password', (value) => readNewPassword(value), { doc: { schema: NEW_PASSWORD, required: true } })
  password: string;

  /** A missing or malformed token is a dead link, judged with the link. */
  @Accepts('token', { schema: { type: 'string', description: 'svcr_…' }, required: true })
  token?: unknown;
}

/** POST /auth/forgot */
export class ForgotBody {
  /** Missing has its own sentence; then the shape of any email. */
  @FieldRule('forgot-email', (value) =>
    value === undefined || value === null || (typeof value === 'string' && value.trim() === '') ? { code: 'forgot.email_missing' } : refusalOf(() => readEmail(value)),
    { schema: EMAIL, required: true },
  )
  email: string;
}

/** PATCH /auth/me */
export class UpdateMeBody {
  @Reads('name', (value) => readName(value, false), { doc: { schema: PROFILE_DOC.name } })
  name?: string;

  @Reads('color', readColor, { doc: { schema: PROFILE_DOC.color } })
  color?: string;

  @Reads('emoji', readEmoji, { doc: { schema: PROFILE_DOC.emoji } })
  emoji?: string | null;
}

const filled = (value: unknown): boolean => typeof value === 'string' && value !== '';

/** POST /auth/password: both fields first (one sentence), then the new password's length. */
export class ChangePasswordBody {
  @FieldRule('current', (value, dto) => (filled(value) && filled((dto as { next?: unknown }).next) ? null : { code: 'account.password_change_incomplete' }), {
    schema: { type: 'string' },
    required: true,
  })
  current: string;

  @Reads('next', (value) => readNewPassword(value, 'account.new_password_short'), { doc: { schema: NEW_PASSWORD, required: true } })
  next: string;
}
