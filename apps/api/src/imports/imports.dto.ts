import { fail } from '@board/kernel';
import { readTrelloExport, TrelloBoard } from '@board/imports';
import { UNREADABLE } from '../http/json-body';

/**
 * The body of POST /projects/:projectId/import and …/import/preview: a Trello board export (up to
 * 10 MB). It is not a DTO class: any JSON value goes whole to the domain's `readTrelloExport`,
 * which owns the export's shape and says what is wrong with it; only unparsable JSON is refused
 * here. Read after the owner-or-admin gate, as the contract orders it.
 */
export function readExportBody(body: unknown): TrelloBoard {
  if (body === UNREADABLE) fail('request.not_json');
  return readTrelloExport(body);
}
