import { ErrorCode, ErrorParams, withArticle } from '@board/kernel';

type Entry = readonly [status: number, message: (p: ErrorParams) => string];
const fixed = (status: number, message: string): Entry => [status, () => message];

/**
 * Every domain error code with its HTTP status and the contract's exact sentence. The mapped
 * type makes it exhaustive: a code without an entry does not compile.
 */
export const ERROR_CATALOG: { readonly [C in ErrorCode]: Entry } = {
  'request.not_json': fixed(400, 'The request body must be JSON.'),
  'request.too_large': fixed(413, 'The request body is too large.'),
  'request.not_found': fixed(404, 'Not found.'),
  'request.invalid': [400, (p) => String(p.message)],
  'id.invalid': [400, (p) => `That is not ${withArticle(String(p.kind))} id.`],
  'text.not_text': [400, (p) => `${p.field} must be text.`],
  'text.empty': [400, (p) => `${p.field} cannot be empty.`],
  'text.too_long': [400, (p) => `${p.field} is too long (max ${p.max} characters).`],
  'auth.signin_required': fixed(401, 'Sign in first, or send an agent token.'),
  'auth.token_invalid': fixed(401, 'That token is not valid any more.'),
  'auth.token_other_project': fixed(403, 'That token belongs to another project.'),
  'auth.cross_site': fixed(403, 'Cross-site requests are refused.'),
  'gate.human': fixed(403, 'Only a person can do this.'),
  'gate.admin': [403, (p) => `Only the owner or an admin can ${p.what}.`],
  'gate.owner': [403, (p) => `Only the owner can ${p.what}.`],
  'gate.agent': fixed(403, 'Only an agent can do this.'),
  'throttle.too_many': [429, (p) => `Too many tries. Wait ${p.minutes} minutes and try again.`],
  'signup.closed': fixed(403, 'This board is not taking new accounts. Ask the owner to add you.'),
  'account.email_invalid': fixed(400, 'That email address does not look correct.'),
  'account.password_short': fixed(400, 'The password must have at least 8 characters.'),
  'account.email_taken': fixed(409, 'An account with that email already exists.'),
  'account.login_failed': fixed(401, 'That email and password do not match.'),
  'account.color_invalid': fixed(400, 'Pick one of the colours on offer.'),
  'account.emoji_invalid': fixed(400, 'A face is one emoji, or null for your initials.'),
  'account.password_change_incomplete': fixed(400, 'Send the password you use now and the one you want.'),
  'account.new_password_short': fixed(400, 'The new password must have at least 8 characters.'),
  'account.wrong_password': fixed(403, 'That is not the password you use now.'),
  'reset.dead_link': fixed(400, 'This link does not work any more. Ask the owner of your project for a new one.'),
  'project.not_found': fixed(404, 'Project not found.'),
  'project.key_invalid': fixed(400, 'A key is 2 to 10 letters or digits and starts with a letter.'),
  'project.key_taken': [409, (p) => `Another project already uses the key ${p.key}.`],
  'project.done_when_invalid': fixed(400, 'doneWhen names a select property of this project and some of its options, or is null.'),
  'project.flag_invalid': [400, (p) => `${p.field} is true or false.`],
  'project.hand_over_to_person': fixed(400, 'A project can only be handed over to a person who is a member.'),
  'member.not_found': fixed(404, 'Member not found.'),
  'member.already': fixed(409, 'That person is already a member.'),
  'member.owner_cannot_leave': fixed(400, 'The owner cannot be removed. Hand the project over first.'),
  'member.owner_role': fixed(400, 'Hand the project over to change the owner.'),
  'member.role_invalid': fixed(400, 'A role is member or admin.'),
  'member.reset_agent': fixed(400, 'An agent signs in with a token, so it has no password to reset.'),
  'invite.email_invalid': fixed(400, 'That email address does not look correct.'),
  'agent.not_found': fixed(404, 'Agent not found.'),
  'token.not_found': fixed(404, 'Token not found.'),
  'property.not_in_project': fixed(400, 'That property is not in this project.'),
};

export function describeError(code: ErrorCode, params: ErrorParams): { status: number; message: string } {
  const [status, message] = ERROR_CATALOG[code];
  return { status, message: message(params) };
}
