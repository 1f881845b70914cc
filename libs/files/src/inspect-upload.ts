import { fail } from '@board/kernel';
import { Attachment, checkStoredObject } from './attachment';
import { IMAGE_HEAD_BYTES, isSizedImage, JPEG_HEAD_LIMIT, readImageSize } from './image-size';
import { ObjectStore } from './object-store';

/**
 * What confirming an upload checks in the bucket: the object is there with the promised length
 * and type; an image of a type the server reads must be that image, and its size is read from
 * its head (a ranged GET, never the whole file); an image whose size is not there is refused.
 * Answers the size, or null for other types.
 */
export async function inspectUpload(
  store: ObjectStore,
  attachment: Pick<Attachment, 'objectKey' | 'size' | 'mime'>,
): Promise<{ width: number; height: number } | null> {
  checkStoredObject(attachment, await store.head(attachment.objectKey));
  const mime = attachment.mime;
  if (!isSizedImage(mime)) return null;
  if (attachment.size === 0) return fail('attachment.not_image', { mime });
  let limit = Math.min(attachment.size, IMAGE_HEAD_BYTES);
  for (;;) {
    const bytes = await store.readRange(attachment.objectKey, 0, limit - 1);
    const complete = bytes.length >= attachment.size;
    const reading = readImageSize(mime, bytes, complete);
    if (reading.kind === 'size') return { width: reading.width, height: reading.height };
    if (reading.kind === 'invalid') return fail('attachment.not_image', { mime });
    // A JPEG's frame header can sit behind large metadata: read further, up to a limit.
    const further = Math.min(attachment.size, JPEG_HEAD_LIMIT);
    if (further > limit && bytes.length >= limit) {
      limit = further;
      continue;
    }
    // The right magic, but no size within what the server reads (a JPEG of endless empty
    // segments, say): refused like a forged image, since a browser may choke on what follows.
    return fail('attachment.not_image', { mime });
  }
}
