import { readColor, readEmail, readEmoji, readName, readNewPassword } from '@board/accounts';
import { FieldRule, refusalOf } from '../http/dto/field-rules';
import { Accepts, Reads } from '../http/dto/reads';

/*
 * Register, login, reset and forgot are read with `parseRequest` inside the service: their
 * refusals count towards the throttle (and closed sign-up or mail being off answer first), so
 * the global pipe, which runs before the handler, must not read them.
 */

/** POST /auth/register */
export class RegisterBody {
  @Reads('email', readEmail)
  email: string;

  @Reads('password', (value) => readNewPassword(value))
  password: string;

  @Reads('name', (value) => readName(value, true))
  name: string;
}

/** POST /auth/login: the email is normalised, not judged, and nothing here is refused (a wrong pair is). */
export class LoginBody {
  @Accepts('email')
  email?: unknown;

  @Accepts('password')
  password?: unknown;
}

/** POST /auth/reset */
export class ResetBody {
  @Reads('password', (value) => readNewPassword(value))
  password: string;

  /** A missing or malformed token is a dead link, judged with the link. */
  @Accepts('token')
  token?: unknown;
}

/** POST /auth/forgot */
export class ForgotBody {
  /** Missing has its own sentence; then the shape of any email. */
  @FieldRule('forgot-email', (value) =>
    value === undefined || value === null || (typeof value === 'string' && value.trim() === '') ? { code: 'forgot.email_missing' } : refusalOf(() => readEmail(value)),
  )
  email: string;
}

/** PATCH /auth/me */
export class UpdateMeBody {
  @Reads('name', (value) => readName(value, false))
  name?: string;

  @Reads('color', readColor)
  color?: string;

  @Reads('emoji', readEmoji)
  emoji?: string | null;
}

const filled = (value: unknown): boolean => typeof value === 'string' && value !== '';

/** POST /auth/password: both fields first (one sentence), then the new password's length. */
export class ChangePasswordBody {
  @FieldRule('current', (value, dto) => (filled(value) && filled((dto as { next?: unknown }).next) ? null : { code: 'account.password_change_incomplete' }))
  current: string;

  @Reads('next', (value) => readNewPassword(value, 'account.new_password_short'))
  next: string;
}
