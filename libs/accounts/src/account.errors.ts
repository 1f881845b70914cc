/** The refusals of signing in and up, credentials, passwords, resets and the throttle, by stable code; the catalog (apps/api/src/http/error-catalog.ts) maps each. */
export const ACCOUNT_ERROR_CODES = [
  'auth.signin_required',
  'auth.token_invalid',
  'auth.token_other_project',
  'auth.cross_site',
  'throttle.too_many',
  'signup.closed',
  'account.email_invalid',
  'account.password_short',
  'account.password_common',
  'account.email_taken',
  'account.login_failed',
  'account.color_invalid',
  'account.emoji_invalid',
  'account.password_change_incomplete',
  'account.new_password_short',
  'account.wrong_password',
  'reset.dead_link',
  'forgot.unavailable',
  'forgot.email_missing',
  // two-step sign-in (extensions.md § 3.1)
  'totp.on_already',
  'totp.setup_first',
  'totp.code_wrong',
  'totp.code_needed',
  'totp.login_code_wrong',
  // single sign-on (extensions.md § 3.2): the way back refused, shown on the sign-in screen
  'oidc.off',
  'oidc.state_refused',
  'oidc.provider_refused',
  'oidc.email_unverified',
  'oidc.unavailable',
] as const;

// Adds these codes to the kernel's ErrorCode, so `fail('…')` anywhere checks against every lib's codes.
declare module '@board/kernel' {
  interface ErrorCodes extends Record<(typeof ACCOUNT_ERROR_CODES)[number], true> {}
}
