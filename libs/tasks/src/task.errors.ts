/** The refusals of tasks, links and parts, bulk edits, checklists and comments, by stable code; the catalog (apps/api/src/http/error-catalog.ts) maps each. */
export const TASK_ERROR_CODES = [
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
  'checklist.not_found',
  'checklist.clash',
  'comment.not_found',
  'comment.edit_own',
  'comment.empty',
  'comment.delete_own',
  'task.values_not_object',
] as const;

// Adds these codes to the kernel's ErrorCode, so `fail('…')` anywhere checks against every lib's codes.
declare module '@board/kernel' {
  interface ErrorCodes extends Record<(typeof TASK_ERROR_CODES)[number], true> {}
}
