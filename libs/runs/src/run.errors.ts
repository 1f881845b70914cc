/** The refusals of an agent's runs: steps, control words, questions, links, usage and budget, by stable code; the catalog (apps/api/src/http/error-catalog.ts) maps each. */
export const RUN_ERROR_CODES = [
  'run.not_found',
  'run.plan_too_long',
  'run.step_too_long',
  'run.already_open',
  'run.step_index',
  'run.report_for',
  'run.hand_over_step',
  'run.take_over_by_person',
  'run.other_agent',
  'run.closed',
  'run.waits',
  'run.control_invalid',
  'run.over',
  'run.status_invalid',
  'run.before_missing',
  'run.steps_not_texts',
  'run.question_needs_waiting',
  'run.question_text',
  'run.question_options',
  'run.answer_choice',
  'run.no_open_question',
  'run.link_invalid',
  'run.link_title',
  'run.link_kind',
  'run.links_too_many',
  'run.usage_counts',
  'run.usage_shrinks',
  'run.budget_spent',
] as const;

// Adds these codes to the kernel's ErrorCode, so `fail('…')` anywhere checks against every lib's codes.
declare module '@board/kernel' {
  interface ErrorCodes extends Record<(typeof RUN_ERROR_CODES)[number], true> {}
}
