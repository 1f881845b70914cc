/** The refusals of projects, members, agents and their tokens, invites, by stable code; the catalog (apps/api/src/http/error-catalog.ts) maps each. */
export const PROJECT_ERROR_CODES = [
  'project.not_found',
  'project.key_invalid',
  'project.key_taken',
  'project.template_invalid',
  'project.done_when_invalid',
  'project.hand_over_to_person',
  'member.not_found',
  'member.already',
  'member.owner_cannot_leave',
  'member.owner_role',
  'member.role_invalid',
  'member.reset_agent',
  'agent.not_found',
  'token.not_found',
  'member.reset_beyond',
  'project.budget_invalid',
  'invite.too_many',
] as const;

// Adds these codes to the kernel's ErrorCode, so `fail('…')` anywhere checks against every lib's codes.
declare module '@board/kernel' {
  interface ErrorCodes extends Record<(typeof PROJECT_ERROR_CODES)[number], true> {}
}
