import { fail } from '@board/kernel';
import { BoardExport, isBoardExport, readBoardExport, readTrelloExport, TrelloBoard } from '@board/imports';
import { UNREADABLE } from '../http/json-body';

/** What an import body was read as: a project export (extensions.md § 3.4), else a Trello board export. */
export type ImportBody = { kind: 'export'; doc: BoardExport } | { kind: 'trello'; board: TrelloBoard };

/**
 * The body of POST /projects/:projectId/import and …/import/preview (up to 10 MB). It is not a DTO
 * class: any JSON value goes whole to the domain, which owns both documents' shapes and says what
 * is wrong with them; only unparsable JSON is refused here. A body that says it is a project export
 * (`format: "task-board-export"`) is read as one; anything else as a Trello export, as before.
 * Read after the owner-or-admin gate, as the contract orders it.
 */
export function readImportBody(body: unknown): ImportBody {
  if (body === UNREADABLE) fail('request.not_json');
  if (isBoardExport(body)) return { kind: 'export', doc: readBoardExport(body) };
  return { kind: 'trello', board: readTrelloExport(body) };
}
