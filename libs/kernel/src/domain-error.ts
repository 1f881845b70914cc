/**
 * Every refusal the domain can raise, by a stable code. The HTTP layer maps each code to its
 * status and contract message in one exhaustive table, so a new code that lacks a message
 * does not compile.
 */
export const ERROR_CODES = [
  // request shape
  'request.not_json',
  'request.too_large',
  'request.not_found',
  'request.invalid',
  'id.invalid',
  'text.not_text',
  'text.empty',
  'text.too_long',
  // credentials and gates
  'auth.signin_required',
  'auth.token_invalid',
  'auth.token_other_project',
  'auth.cross_site',
  'gate.human',
  'gate.admin',
  'gate.owner',
  'gate.agent',
  'throttle.too_many',
  // accounts
  'signup.closed',
  'account.email_invalid',
  'account.password_short',
  'account.email_taken',
  'account.login_failed',
  'account.color_invalid',
  'account.emoji_invalid',
  'account.password_change_incomplete',
  'account.new_password_short',
  'account.wrong_password',
  'reset.dead_link',
  // projects, members, agents
  'project.not_found',
  'project.key_invalid',
  'project.key_taken',
  'project.done_when_invalid',
  'project.flag_invalid',
  'project.hand_over_to_person',
  'member.not_found',
  'member.already',
  'member.owner_cannot_leave',
  'member.owner_role',
  'member.role_invalid',
  'member.reset_agent',
  'invite.email_invalid',
  'agent.not_found',
  'token.not_found',
  'property.not_in_project',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export type ErrorParams = Record<string, string | number>;

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly params: ErrorParams = {},
    /** Extra keys the answer carries beside `error` (a clash's `field` and `current`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(code);
    this.name = 'DomainError';
  }
}

export const fail = (code: ErrorCode, params?: ErrorParams, extra?: Record<string, unknown>): never => {
  throw new DomainError(code, params, extra);
};
