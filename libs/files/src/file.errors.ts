/** The refusals of attachments: upload rules, confirmation, deletion, pending slots, by stable code; the catalog (apps/api/src/http/error-catalog.ts) maps each. */
export const FILE_ERROR_CODES = [
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
  'attachment.too_many_pending',
] as const;

// Adds these codes to the kernel's ErrorCode, so `fail('…')` anywhere checks against every lib's codes.
declare module '@board/kernel' {
  interface ErrorCodes extends Record<(typeof FILE_ERROR_CODES)[number], true> {}
}
