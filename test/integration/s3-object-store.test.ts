/**
 * The S3 adapter against s3rver, a SigV4-checking S3 server started here: put, head, ranged
 * reads, copies, deletes, and URLs signed for the address browsers use when it is not the service's.
 */
import { S3ObjectStore } from '@board/platform';
import { startS3, TestBucket } from '../support/s3';

describe('S3ObjectStore', () => {
  let s3: TestBucket;
  beforeAll(async () => {
    s3 = await startS3('adapter');
  });
  afterAll(async () => {
    await s3?.close();
  });

  it('puts, heads, reads a range and deletes; a missing key heads as null and deletes quietly', async () => {
    await s3.store.put('a/1', Buffer.from('0123456789'), 'text/plain');
    expect(await s3.store.head('a/1')).toEqual({ size: 10, contentType: 'text/plain' });
    expect(Buffer.from(await s3.store.readRange('a/1', 2, 5)).toString()).toBe('2345');
    expect(Buffer.from(await s3.store.readRange('a/1', 0, 65535)).toString()).toBe('0123456789');
    await s3.store.delete('a/1');
    expect(await s3.store.head('a/1')).toBeNull();
    await expect(s3.store.delete('a/never')).resolves.toBeUndefined();
  });

  it('copies an object inside the bucket with its type; a missing source answers false', async () => {
    await s3.store.put('uploads/p/1', Buffer.from('<b>copied</b>'), 'image/png');
    expect(await s3.store.copy('uploads/p/1', 'attachments/p/1/c')).toBe(true);
    expect(await s3.store.head('attachments/p/1/c')).toEqual({ size: 13, contentType: 'image/png' });
    // The copy is its own: writing the source again leaves it as it was.
    await s3.store.put('uploads/p/1', Buffer.from('<i>changed</i>'), 'image/png');
    expect(Buffer.from(await s3.store.readRange('attachments/p/1/c', 0, 100)).toString()).toBe('<b>copied</b>');
    expect(await s3.store.copy('uploads/p/never', 'attachments/p/never/c')).toBe(false);
    expect(await s3.store.head('attachments/p/never/c')).toBeNull();
  });

  it('signs for the public endpoint when one is set, and still works on the service’s own', async () => {
    const publicEndpoint = s3.endpoint.replace('127.0.0.1', 'localhost');
    const store = new S3ObjectStore({
      bucket: s3.bucket, endpoint: s3.endpoint, publicEndpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true,
    });
    try {
      const upload = await store.signedUploadUrl('b/1', { contentType: 'text/plain', size: 2, expiresInSeconds: 600 });
      expect(new URL(upload).host).toBe(new URL(publicEndpoint).host);
      expect((await fetch(upload, { method: 'PUT', body: 'hi', headers: { 'content-type': 'text/plain' } })).status).toBe(200);
      // The host is signed: the same URL on the other address is refused.
      const elsewhere = upload.replace(publicEndpoint, s3.endpoint);
      expect((await fetch(elsewhere, { method: 'PUT', body: 'hi', headers: { 'content-type': 'text/plain' } })).status).toBe(403);
      expect(await store.head('b/1')).toEqual({ size: 2, contentType: 'text/plain' });
      const read = await store.signedReadUrl('b/1', { contentDisposition: 'attachment; filename="b.txt"', expiresInSeconds: 300 });
      expect(new URL(read).host).toBe(new URL(publicEndpoint).host);
      const got = await fetch(read);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-disposition')).toBe('attachment; filename="b.txt"');
      expect(await got.text()).toBe('hi');
    } finally {
      store.destroy();
    }
  });

  it('refuses a signed URL past its time', async () => {
    const upload = await s3.store.signedUploadUrl('c/1', { contentType: 'text/plain', size: 1, expiresInSeconds: 1 });
    await new Promise((r) => setTimeout(r, 2100));
    const res = await fetch(upload, { method: 'PUT', body: 'x', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Request has expired');
  });
});
