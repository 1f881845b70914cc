import type { JsonSchema } from '../dto-schema';
import { anyJson, arrayOf, bool, int, mapOf, nullable, obj, rank, ref, str, timestamp, uuid, words } from './common';

const boardFields = {
  id: uuid,
  number: int,
  key: str,
  title: str,
  description: str,
  position: rank,
  createdAt: timestamp,
  updatedAt: timestamp,
  archivedAt: nullable(timestamp),
  values: mapOf(anyJson),
  checklistTotal: int,
  checklistDone: int,
  commentCount: int,
  blockedBy: arrayOf(str),
  parts: nullable(obj({ done: int, total: int })),
};
const row = obj({ id: uuid, key: str, title: str, over: bool });

/** Tasks and what hangs on them (interface.md › Resources › Task … Activity entry). */
export const TASK_SCHEMAS: Record<string, JsonSchema> = {
  TaskItem: obj(boardFields, [], 'A task as the board read lists it.'),
  TaskCreated: obj({ ...boardFields, projectId: uuid, createdBy: uuid }, ['checklistTotal', 'checklistDone', 'commentCount', 'blockedBy', 'parts'], 'The create answer.'),
  TaskRow: row,
  Task: obj(
    {
      ...boardFields,
      links: obj({ blockedBy: arrayOf(row), blocks: arrayOf(row) }),
      parent: nullable(row),
      children: arrayOf(row),
      checklist: arrayOf(ref('ChecklistItem')),
      comments: arrayOf(ref('Comment')),
      activity: arrayOf(ref('ActivityEntry')),
      run: nullable(ref('Run')),
      pastRuns: arrayOf(ref('PastRun')),
    },
    [],
    'A task read in full (`GET /api/tasks/{taskId}`).',
  ),
  ArchivedTask: obj({ id: uuid, number: int, key: str, title: str, description: str, position: rank, archivedAt: timestamp }),
  DeletedTask: obj({ id: uuid, number: int, key: str, title: str, position: rank, deletedAt: timestamp, goesAt: timestamp }),
  ChecklistItem: obj({ id: uuid, taskId: uuid, text: str, done: bool, position: rank }, ['taskId']),
  Comment: obj({ id: uuid, taskId: uuid, authorId: nullable(uuid), body: str, createdAt: timestamp, editedAt: nullable(timestamp), author: nullable(ref('Avatar')) }),
  ActivityEntry: obj({
    id: uuid,
    kind: words('created', 'title', 'description', 'value', 'checklist', 'comment', 'run', 'archive', 'link', 'deleted', 'reset', 'import', 'attachment', 'rules'),
    createdAt: timestamp,
    data: { type: 'object' },
    actor: nullable(ref('Avatar')),
  }),
  Attachment: obj({
    id: uuid,
    taskId: uuid,
    uploaderId: nullable(uuid),
    name: str,
    mime: str,
    size: int,
    width: nullable(int),
    height: nullable(int),
    createdAt: timestamp,
    url: str,
  }),
  Dropped: arrayOf(obj({ taskId: uuid, propertyId: uuid, name: str })),
  SearchHit: obj({ task: obj({ id: uuid, number: int, key: str, title: str, position: rank, archivedAt: timestamp }), snippet: str }),
};
