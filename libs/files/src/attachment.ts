import { charLength, fail, HOUR, InTurn, inTurn, MINUTE } from '@board/kernel';
import type { StoredObject } from './object-store';

export const FILE_NAME_MAX = 200;
/** A signed PUT works ten minutes; a signed GET five (interface.md › Limits). */
export const UPLOAD_WINDOW_SECONDS = 10 * 60;
export const READ_LINK_SECONDS = 5 * 60;
/** An upload nobody confirms within an hour is removed, from the bucket and the table. */
export const PENDING_LIFETIME_MS = HOUR;
/**
 * When an upload key can no longer be written: the signed PUT's window, plus a margin for a
 * bucket whose clock runs behind ours. Its leftovers are deleted then (and its pending row's slot
 * is gone by the hour).
 */
export const UPLOAD_CLOSED_AFTER_MS = UPLOAD_WINDOW_SECONDS * 1000 + 5 * MINUTE;
/** Upload slots a person (or an agent) holds at once that are not yet confirmed (decisions.md › Fair use). */
export const MAX_PENDING_UPLOADS = 20;

/** pending after the upload request, ready after confirmation; removed on delete (the row goes). */
export type AttachmentState = 'pending' | 'ready';

export interface Attachment {
  id: string;
  projectId: string;
  taskId: string;
  /** Null once the uploader's user row is gone. */
  uploaderId: string | null;
  name: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  /**
   * Where the bytes are: the upload key while pending, then the stored key `ready` copied them to
   * (a key no upload URL can write).
   */
  objectKey: string;
  /** Where the signed PUT writes; null for files uploaded before uploads had keys of their own. */
  uploadKey: string | null;
  state: AttachmentState;
  createdAt: Date;
}

/** What answers and the task read show (interface.md › Attachment). */
export interface AttachmentView {
  id: string;
  taskId: string;
  uploaderId: string | null;
  name: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  createdAt: Date;
  url: string;
}

export const attachmentUrl = (id: string): string => `/api/attachments/${id}`;

export const toAttachmentView = (a: Attachment): AttachmentView => ({
  id: a.id,
  taskId: a.taskId,
  uploaderId: a.uploaderId,
  name: a.name,
  mime: a.mime,
  size: a.size,
  width: a.width,
  height: a.height,
  createdAt: a.createdAt,
  url: attachmentUrl(a.id),
});

/** Where an upload's signed PUT writes: the service's own ids only, never the file's name. */
export const uploadKeyFor = (projectId: string, attachmentId: string): string => `uploads/${projectId}/${attachmentId}`;

/**
 * Where a checked file is kept and served from. No upload URL names it, and each confirmation
 * copies to a key of its own (`copy`), so of two racing confirmations neither can overwrite what
 * the other checked.
 */
export const storedKeyFor = (projectId: string, attachmentId: string, copy: string): string => `attachments/${projectId}/${attachmentId}/${copy}`;

/** Refuses one more upload slot to a person holding MAX_PENDING_UPLOADS unconfirmed ones. */
export function assertUploadSlotFree(held: number): void {
  if (held >= MAX_PENDING_UPLOADS) fail('attachment.too_many_pending');
}

/** What a board accepts (SERVICE_MAX_FILE_BYTES, SERVICE_FILE_TYPES). */
export interface FilePolicy {
  maxBytes: number;
  types: readonly string[];
}

export interface UploadRequest {
  name: string;
  mime: string;
  size: number;
}

/** `Text/Plain; charset=utf-8` → `text/plain`: types compare without parameters or case. */
export const normalizeMime = (value: string): string => value.split(';')[0].trim().toLowerCase();

// Control characters would break the Content-Disposition header the name ends up in.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
/** How much of a refused mime the refusal repeats. */
const MIME_ECHO_MAX = 100;

/**
 * An upload request as its request DTO read it: the name and the type's shape. Which types the
 * board takes and its size limit are the server's policy, and the contract refuses a type the
 * board does not take before it looks at the size: the size's own refusal waits its turn.
 */
export interface UploadAsked {
  name: string;
  mime: string;
  size: InTurn<number>;
}

/** An upload's size as sent: a number (whether a whole one within the limit is `checkUpload`'s). */
export function readUploadSize(value: unknown): number {
  if (typeof value !== 'number') fail('attachment.size_missing');
  return value;
}

/** An upload request by the board's policy, with the contract's sentences in its order. */
export function checkUpload(asked: UploadAsked, policy: FilePolicy): UploadRequest {
  const { name, mime } = asked;
  if (!policy.types.some((t) => normalizeMime(t) === mime)) {
    const echo = charLength(mime) > MIME_ECHO_MAX ? `${[...mime].slice(0, MIME_ECHO_MAX).join('')}…` : mime;
    fail('attachment.mime_refused', { mime: echo });
  }
  const size = inTurn(asked.size);
  // Beyond the limit first: 1e309 (Infinity) and sizes past any integer column are "too large", never a 500.
  if (size > policy.maxBytes) fail('attachment.too_large', { size: formatFileSize(policy.maxBytes) });
  if (!Number.isInteger(size) || size < 0) fail('attachment.size_missing');
  return { name, mime, size };
}

/** A file's name as shown: control characters become spaces, trimmed; 1 to FILE_NAME_MAX characters. */
export function readFileName(value: unknown): string {
  const name = typeof value === 'string' ? value.replace(CONTROL, ' ').trim() : '';
  if (!name) fail('attachment.name_missing');
  if (charLength(name) > FILE_NAME_MAX) fail('attachment.name_too_long');
  return name;
}

/** A media type, normalised; whether the server takes it is the policy's part (`checkUpload`). */
export function readMime(value: unknown): string {
  const mime = typeof value === 'string' ? normalizeMime(value) : '';
  if (!mime) fail('attachment.mime_missing');
  return mime;
}

const UNITS = ['KB', 'MB', 'GB', 'TB'];

/** Bytes the way a person reads them: `25 MB`, `1.5 GB`, `512 KB`, `100 bytes` (binary multiples). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = Math.round(value * 10) / 10;
  return `${Number.isInteger(shown) ? shown : shown.toFixed(1)} ${UNITS[unit]}`;
}

/** Who acts on a file: a person or an agent, with the role in the file's project. */
export interface FileActor {
  userId: string;
  kind: 'human' | 'agent';
  role: 'owner' | 'admin' | 'member';
}

/** Only the uploader confirms an upload. */
export function assertCanConfirm(actor: FileActor, attachment: Pick<Attachment, 'uploaderId'>): void {
  if (attachment.uploaderId === null || attachment.uploaderId !== actor.userId) fail('attachment.confirm_own');
}

/** The uploader deletes their own; a person who is owner or admin anybody's; an agent only its own. */
export function assertCanDelete(actor: FileActor, attachment: Pick<Attachment, 'uploaderId'>): void {
  if (attachment.uploaderId !== null && attachment.uploaderId === actor.userId) return;
  if (actor.kind === 'human' && (actor.role === 'owner' || actor.role === 'admin')) return;
  fail('attachment.delete_own');
}

/** The bucket must hold what the upload promised: the object, its exact length, its type. */
export function checkStoredObject(attachment: Pick<Attachment, 'size' | 'mime'>, stored: StoredObject | null): void {
  if (!stored) return fail('attachment.not_uploaded');
  if (stored.size !== attachment.size) fail('attachment.size_mismatch', { actual: stored.size, promised: attachment.size });
  const actual = stored.contentType ? normalizeMime(stored.contentType) : 'application/octet-stream';
  if (actual !== attachment.mime) fail('attachment.mime_mismatch', { actual, promised: attachment.mime });
}

/** Feed line data of an add or a remove (interface.md › Activity entry). */
export const attachmentLineData = (action: 'added' | 'removed', attachment: Pick<Attachment, 'id' | 'name'>) => ({
  action,
  attachmentId: attachment.id,
  name: attachment.name,
});

/**
 * Storage of attachments, kept to the project and to live tasks. Removing a row also queues its
 * object key for removal from the bucket, in the same transaction (see BucketCleanup).
 */
export abstract class AttachmentRepository {
  /**
   * Takes the uploader's upload lock until the transaction ends (of concurrent requests each
   * counts what the others added) and answers how many uploads they hold pending made after `since`.
   */
  abstract holdUploadSlots(uploaderId: string, since: Date): Promise<number>;
  /** A pending attachment (its bytes at its upload key); null when the task is not a live task of the project. */
  abstract insertPending(
    attachment: Omit<Attachment, 'state' | 'width' | 'height' | 'uploadKey'> & { uploadKey: string; uploadClosesAt: Date },
  ): Promise<Attachment | null>;
  /** An attachment in any state whose task is live. */
  abstract find(projectId: string, id: string): Promise<Attachment | null>;
  /**
   * pending → ready, its bytes now at `objectKey`, with the image size read (or nulls); queues the
   * upload key for deletion once its URL has closed. Null when it was not pending (or its task went).
   */
  abstract markReady(projectId: string, id: string, objectKey: string, size: { width: number; height: number } | null): Promise<Attachment | null>;
  /** Removes the row (its key queued for the bucket); answers what was removed, or null. */
  abstract remove(projectId: string, id: string): Promise<Attachment | null>;
  /** Marks the task changed (`updated_at`). */
  abstract touchTask(projectId: string, taskId: string, now: Date): Promise<void>;
}

/**
 * The bucket's side of removals. Every removed attachment row leaves its key in a queue in the
 * same transaction; sweeps on any instance claim keys, delete them from the bucket and forget
 * them. A key whose bucket delete fails stays queued and is tried again later (sooner if the
 * instance that held it dies).
 */
export abstract class BucketCleanup {
  /** Removes pending uploads made before `before` (their keys are queued); answers how many. */
  abstract expirePending(before: Date, limit: number): Promise<number>;
  /**
   * Claims up to `limit` queued keys due at `now` or held by an instance that died, each held by
   * the instance `holder` until `leaseUntil` (other sweeps skip it meanwhile, while `holder` lives).
   */
  abstract claim(now: Date, leaseUntil: Date, limit: number, holder: string): Promise<string[]>;
  /** Forgets keys the bucket no longer holds. */
  abstract forget(keys: readonly string[]): Promise<void>;
}
