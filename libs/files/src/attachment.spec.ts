import { readInTurn } from '@board/kernel';
import { refusal } from '../../../test/support/refusal';
import {
  assertCanConfirm, assertCanDelete, checkStoredObject, FileActor, formatFileSize, normalizeMime, uploadKeyFor, storedKeyFor, checkUpload, readFileName, readMime, readUploadSize,
  assertUploadSlotFree, MAX_PENDING_UPLOADS,
} from './attachment';
import { contentDisposition, opensInPlace } from './disposition';

const POLICY = { maxBytes: 26214400, types: ['image/png', 'text/plain', 'application/pdf', 'image/svg+xml', 'video/mp4'] };
/** As a request reads it: the DTO's readers in their order (the size's refusal kept for its turn), then the policy. */
const read = (input: Record<string, unknown>) =>
  checkUpload({ name: readFileName(input.name), mime: readMime(input.mime), size: readInTurn(() => readUploadSize(input.size)) }, POLICY);
const ok = { name: 'shot.png', mime: 'image/png', size: 1234 };

describe('an upload request', () => {
  it('trims the name, normalises the mime and keeps the size', () => {
    expect(read({ name: '  shot.png ', mime: ' Image/PNG; x=1', size: 1234 })).toEqual(ok);
    expect(read({ ...ok, size: 0 }).size).toBe(0);
    expect(read({ ...ok, size: 26214400 }).size).toBe(26214400);
    expect(read({ ...ok, name: 'é'.repeat(200) }).name).toHaveLength(200);
  });

  it('replaces control characters in the name (it ends up in a header)', () => {
    expect(read({ ...ok, name: 'a\r\nb\u0000c.png' }).name).toBe('a  b c.png');
  });

  it('refuses with the contract sentences in order: name, mime, size', () => {
    for (const name of [undefined, null, '', '   ', 42, '\n\t']) expect(refusal(() => read({ ...ok, name })).code).toBe('attachment.name_missing');
    expect(refusal(() => read({ ...ok, name: 'x'.repeat(201) })).code).toBe('attachment.name_too_long');
    for (const mime of [undefined, '', ' ', 7, ';']) expect(refusal(() => read({ ...ok, mime })).code).toBe('attachment.mime_missing');
    const refused = refusal(() => read({ ...ok, mime: 'application/x-msdownload' }));
    expect(refused.code).toBe('attachment.mime_refused');
    expect(refused.params).toEqual({ mime: 'application/x-msdownload' });
    expect(String(refusal(() => read({ ...ok, mime: 'x'.repeat(500) })).params.mime)).toHaveLength(101);
    for (const size of [undefined, null, '12', -1, 1.5, -Infinity, true]) expect(refusal(() => read({ ...ok, size })).code).toBe('attachment.size_missing');
    expect(refusal(() => read({ name: '', mime: '', size: -1 })).code).toBe('attachment.name_missing');
  });

  it('refuses sizes past the limit, beyond any integer column too, with the size written for a person', () => {
    for (const size of [26214401, 2 ** 31, 2 ** 53, 1e20, Infinity]) {
      const e = refusal(() => read({ ...ok, size }));
      expect(e.code).toBe('attachment.too_large');
      expect(e.params).toEqual({ size: '25 MB' });
    }
  });
});

describe('formatFileSize', () => {
  it('writes sizes like 25 MB', () => {
    expect(formatFileSize(26214400)).toBe('25 MB');
    expect(formatFileSize(10 * 1024 * 1024)).toBe('10 MB');
    expect(formatFileSize(1.5 * 1024 * 1024)).toBe('1.5 MB');
    expect(formatFileSize(512 * 1024)).toBe('512 KB');
    expect(formatFileSize(2 * 1024 ** 3)).toBe('2 GB');
    expect(formatFileSize(100)).toBe('100 bytes');
    expect(formatFileSize(1)).toBe('1 byte');
  });
});

describe('who may', () => {
  const actor = (userId: string, role: FileActor['role'], kind: FileActor['kind'] = 'human'): FileActor => ({ userId, role, kind });
  const file = { uploaderId: 'up' };

  it('confirm: the uploader only, an owner is no exception', () => {
    assertCanConfirm(actor('up', 'member'), file);
    expect(refusal(() => assertCanConfirm(actor('owner', 'owner'), file)).code).toBe('attachment.confirm_own');
    expect(refusal(() => assertCanConfirm(actor('up', 'member'), { uploaderId: null })).code).toBe('attachment.confirm_own');
  });

  it('delete: own files; an owner or admin person anybody’s; an agent or member only its own', () => {
    assertCanDelete(actor('up', 'member'), file);
    assertCanDelete(actor('up', 'member', 'agent'), file);
    assertCanDelete(actor('o', 'owner'), file);
    assertCanDelete(actor('a', 'admin'), { uploaderId: null });
    expect(refusal(() => assertCanDelete(actor('m', 'member'), file)).code).toBe('attachment.delete_own');
    expect(refusal(() => assertCanDelete(actor('bot', 'admin', 'agent'), file)).code).toBe('attachment.delete_own');
  });
});

describe('checkStoredObject', () => {
  const promised = { size: 10, mime: 'text/plain' };
  it('wants the object, its exact length and its type', () => {
    checkStoredObject(promised, { size: 10, contentType: 'text/plain; charset=utf-8' });
    expect(refusal(() => checkStoredObject(promised, null)).code).toBe('attachment.not_uploaded');
    expect(refusal(() => checkStoredObject(promised, { size: 11, contentType: 'text/plain' })).params).toEqual({ actual: 11, promised: 10 });
    const e = refusal(() => checkStoredObject(promised, { size: 10, contentType: 'text/html' }));
    expect(e.code).toBe('attachment.mime_mismatch');
    expect(e.params).toEqual({ actual: 'text/html', promised: 'text/plain' });
    expect(refusal(() => checkStoredObject(promised, { size: 10, contentType: null })).params.actual).toBe('application/octet-stream');
  });
});

describe('contentDisposition', () => {
  it('opens images (not SVG) and video in place, downloads the rest', () => {
    expect(opensInPlace('image/png')).toBe(true);
    expect(opensInPlace('video/webm')).toBe(true);
    expect(opensInPlace('image/svg+xml')).toBe(false);
    expect(opensInPlace('application/pdf')).toBe(false);
    expect(opensInPlace('text/html')).toBe(false);
  });

  it('names the file, with an RFC 5987 filename* when plain ASCII will not do', () => {
    expect(contentDisposition('shot.png', 'image/png')).toBe('inline; filename="shot.png"');
    expect(contentDisposition('notes.svg', 'image/svg+xml')).toBe('attachment; filename="notes.svg"');
    expect(contentDisposition('Grüße 2024.pdf', 'application/pdf')).toBe(
      `attachment; filename="Gr__e 2024.pdf"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%202024.pdf`,
    );
    expect(contentDisposition(`say "hi" (it's).txt`, 'text/plain')).toBe(
      `attachment; filename="say _hi_ (it's).txt"; filename*=UTF-8''say%20%22hi%22%20%28it%27s%29.txt`,
    );
  });
});

describe('keys and mimes', () => {
  it('keys by ids only and compares types without parameters or case', () => {
    expect(uploadKeyFor('p', 'a')).toBe('uploads/p/a');
    expect(storedKeyFor('p', 'a', 'c')).toBe('attachments/p/a/c');
    expect(normalizeMime(' TEXT/Plain ; charset=utf-8')).toBe('text/plain');
  });
});

describe('upload slots', () => {
  it('lets a person hold 20 unconfirmed uploads, and refuses the 21st', () => {
    expect(MAX_PENDING_UPLOADS).toBe(20);
    expect(() => assertUploadSlotFree(19)).not.toThrow();
    expect(refusal(() => assertUploadSlotFree(20)).code).toBe('attachment.too_many_pending');
  });
});
