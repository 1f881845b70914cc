import type { JsonSchema } from './dto-schema';

/**
 * Request bodies that are no DTO class: a board export of a third-party tool goes whole to the
 * domain's reader (`readTrelloExport`, which owns its shape). Every other route is documented from
 * its DTO (`@Body() body: XBody`); the document test fails on an entry here that a DTO shadows.
 */
export const FALLBACK_BODIES: Record<string, JsonSchema> = {
  'POST /api/projects/{projectId}/import/preview': { type: 'object', description: 'A board export of a third-party tool.' },
  'POST /api/projects/{projectId}/import': { type: 'object', description: 'A board export of a third-party tool, and what to import.' },
};
