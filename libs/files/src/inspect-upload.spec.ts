import { gif, jpeg, png, segmentBombJpeg } from '../../../test/support/images';
import { IMAGE_HEAD_BYTES, JPEG_HEAD_LIMIT } from './image-size';
import { inspectUpload } from './inspect-upload';
import { ObjectStore, StoredObject } from './object-store';

/** The port over a map, counting the bytes each ranged read asked for. */
class MemoryStore extends ObjectStore {
  readonly objects = new Map<string, { body: Uint8Array; type: string }>();
  readonly reads: number[] = [];
  async put(key: string, body: Uint8Array, contentType: string) {
    this.objects.set(key, { body, type: contentType });
  }
  async head(key: string): Promise<StoredObject | null> {
    const o = this.objects.get(key);
    return o ? { size: o.body.length, contentType: o.type } : null;
  }
  async readRange(key: string, start: number, end: number) {
    this.reads.push(end - start + 1);
    return this.objects.get(key)!.body.subarray(start, end + 1);
  }
  copy = async () => false;
  signedUploadUrl = async () => 'unused';
  signedReadUrl = async () => 'unused';
  delete = async () => undefined;
}

describe('inspectUpload', () => {
  const check = async (mime: string, body: Uint8Array, promised = body.length) => {
    const store = new MemoryStore();
    await store.put('k', body, mime);
    return { store, result: inspectUpload(store, { objectKey: 'k', size: promised, mime }) };
  };

  it('reads an image’s size from its head only', async () => {
    const { store, result } = await check('image/png', Buffer.concat([png(9, 4), Buffer.alloc(200_000)]));
    expect(await result).toEqual({ width: 9, height: 4 });
    expect(store.reads).toEqual([IMAGE_HEAD_BYTES]);
  });

  it('reads further into a JPEG whose frame lies behind large metadata, up to a limit', async () => {
    const near = await check('image/jpeg', jpeg(30, 20, { metadataBytes: 300_000 }));
    expect(await near.result).toEqual({ width: 30, height: 20 });
    expect(near.store.reads).toEqual([IMAGE_HEAD_BYTES, expect.any(Number)]);
    // Beyond the limit: the magic is right, the size unknown — refused like a forged image.
    const far = await check('image/jpeg', jpeg(30, 20, { metadataBytes: JPEG_HEAD_LIMIT + 10_000 }));
    await expect(far.result).rejects.toMatchObject({ code: 'attachment.not_image', params: { mime: 'image/jpeg' } });
  });

  it('refuses a JPEG of 600,000 empty segments after reading no more than the limit', async () => {
    const bomb = await check('image/jpeg', segmentBombJpeg());
    await expect(bomb.result).rejects.toMatchObject({ code: 'attachment.not_image', params: { mime: 'image/jpeg' } });
    expect(bomb.store.reads).toEqual([IMAGE_HEAD_BYTES, JPEG_HEAD_LIMIT]);
  });

  it('reads nothing of other types, and refuses what the bucket does not hold as promised', async () => {
    const text = await check('text/plain', Buffer.from('hello'));
    expect(await text.result).toBeNull();
    expect(text.store.reads).toEqual([]);
    const short = await check('text/plain', Buffer.from('hello'), 6);
    await expect(short.result).rejects.toMatchObject({ code: 'attachment.size_mismatch' });
    const store = new MemoryStore();
    await expect(inspectUpload(store, { objectKey: 'none', size: 1, mime: 'text/plain' })).rejects.toMatchObject({ code: 'attachment.not_uploaded' });
  });

  it('refuses an empty image without reading, and a GIF that is a PNG', async () => {
    const empty = await check('image/gif', new Uint8Array(0));
    await expect(empty.result).rejects.toMatchObject({ code: 'attachment.not_image', params: { mime: 'image/gif' } });
    expect(empty.store.reads).toEqual([]);
    const wrong = await check('image/gif', png(1, 1));
    await expect(wrong.result).rejects.toMatchObject({ code: 'attachment.not_image' });
    expect(await (await check('image/gif', gif(3, 3))).result).toEqual({ width: 3, height: 3 });
  });
});
