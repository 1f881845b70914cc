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
  'account.password_common',
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
  'property.not_in_project',
  'input.boolean',
  // tasks
  'task.not_found',
  'task.not_on_board',
  'task.clash',
  'task.project_full',
  'link.self',
  'link.circle',
  'parent.self',
  'parent.is_part',
  'parent.has_parts',
  'bulk.no_target',
  'bulk.ids_not_list',
  'bulk.empty',
  'bulk.too_many',
  'bulk.task_not_on_board',
  'bulk.no_property',
  'bulk.archived',
  'bulk.change_not_multi',
  'bulk.change_invalid',
  // values
  'value.select',
  'value.option_gone',
  'value.multi',
  'value.person',
  'value.not_member',
  'value.text',
  'value.number',
  'value.date',
  'value.link_scheme',
  'value.link_count',
  'value.link_length',
  'value.link_list',
  // properties and options
  'property.not_found',
  'property.type_invalid',
  'property.duplicate_option',
  'property.grouped_by_view',
  'property.grouped_by_views',
  'property.not_dated_type',
  'property.no_defaults',
  'property.default_key',
  'property.when_invalid',
  'option.not_found',
  'option.not_select',
  'option.duplicate',
  'option.color_invalid',
  // checklist and comments
  'checklist.not_found',
  'checklist.clash',
  'comment.not_found',
  'comment.edit_own',
  'comment.empty',
  'comment.delete_own',
  // views
  'view.not_found',
  // runs
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
  // webhooks
  'webhook.not_found',
  'webhook.kind_invalid',
  // views
  'view.kind_invalid',
  'view.group_missing',
  'view.group_type',
  'view.roadmap_type',
  'view.board_needs_group',
  'view.main',
  'view.lens_clash',
  'card.place_invalid',
  'card.mode_invalid',
  'card.key_invalid',
  // import (issue 14: a Trello board export)
  'import.not_trello',
  'import.section',
  'import.entry',
  'import.field',
  'import.duplicate',
  'import.unknown_list',
  'import.unknown_label',
  'import.property_type',
  // shipping releases and sprints (issue 13)
  'ship.rest_invalid',
  'ship.releases_off',
  'ship.sprints_off',
  'ship.no_target',
  'ship.last_option',
  'ship.already_shipped',
  // files (attachments in an S3 bucket, issue 12)
  'attachment.off',
  'attachment.not_found',
  'attachment.name_missing',
  'attachment.name_too_long',
  'attachment.mime_missing',
  'attachment.mime_refused',
  'attachment.size_missing',
  'attachment.too_large',
  'attachment.confirm_own',
  'attachment.not_uploaded',
  'attachment.size_mismatch',
  'attachment.mime_mismatch',
  'attachment.not_image',
  'attachment.delete_own',
  // security (issue 19): router refusals in the envelope, lengths
  'request.bad_address',
  'request.address_too_long',
  'request.headers_too_large',
  // fair use: a body that arrives too slowly
  'request.too_slow',
  // account security (issue 19) and mail (issue 12)
  'member.reset_beyond',
  'forgot.unavailable',
  'forgot.email_missing',
  // a person's lists and charts (issue 15)
  'list.not_found',
  'list.too_many',
  'list.full',
  'chart.not_found',
  'chart.kind_invalid',
  'chart.projects',
  'chart.flow_property',
  'chart.day_invalid',
  'chart.range_order',
  'chart.too_many_days',
  // issue 16: the sentences once passed as free `request.invalid` messages, one code each
  'query.limit_invalid',
  // search (extensions § 4)
  'search.limit_invalid',
  // notifications (extensions § 2)
  'notification.mark_nothing',
  'notification.mark_too_many',
  'feed.after_invalid',
  'feed.after_id_invalid',
  'feed.order_invalid',
  'presence.field_invalid',
  'task.values_not_object',
  'card_view.rows_invalid',
  'option.names_not_list',
  'webhook.kinds_not_list',
  'webhook.url_invalid',
  'webhook.url_userinfo',
  'webhook.url_too_long',
  'webhook.address_private',
  'run.steps_not_texts',
  // fair use (decisions.md › Fair use): a busy database, a person's heavy reads
  'server.busy',
  'heavy.too_many',
  // agents at work (extensions § 1): the work queue, questions, links, usage and a daily budget
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
  'project.budget_invalid',
  // fair use: invite mails and upload slots
  'invite.too_many',
  'attachment.too_many_pending',
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

/** A declaration (not an arrow) returning `never`, so TypeScript narrows after a call to it. */
export function fail(code: ErrorCode, params?: ErrorParams, extra?: Record<string, unknown>): never {
  throw new DomainError(code, params, extra);
}
