import { ObjectStore, ReadGrant, StoredObject, UploadGrant } from '@board/files';

/** ObjectStore in memory: objects by key; a signed URL names its key and grant (nothing checks it). */
export class InMemoryObjectStore extends ObjectStore {
  readonly objects = new Map<string, { body: Uint8Array; contentType: string }>();
  /** Keys deleted, in order (a key the store does not hold counts too). */
  readonly deleted: string[] = [];

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    this.objects.set(key, { body: body.slice(), contentType });
  }

  async head(key: string): Promise<StoredObject | null> {
    const object = this.objects.get(key);
    return object ? { size: object.body.length, contentType: object.contentType } : null;
  }

  async readRange(key: string, start: number, end: number): Promise<Uint8Array> {
    return (this.objects.get(key)?.body ?? new Uint8Array()).slice(start, end + 1);
  }

  async copy(from: string, to: string): Promise<boolean> {
    const object = this.objects.get(from);
    if (!object) return false;
    this.objects.set(to, { body: object.body.slice(), contentType: object.contentType });
    return true;
  }

  async signedUploadUrl(key: string, grant: UploadGrant): Promise<string> {
    return `https://bucket.test/${key}?put&type=${encodeURIComponent(grant.contentType)}&size=${grant.size}&expires=${grant.expiresInSeconds}`;
  }

  async signedReadUrl(key: string, grant: ReadGrant): Promise<string> {
    return `https://bucket.test/${key}?get&disposition=${encodeURIComponent(grant.contentDisposition)}&expires=${grant.expiresInSeconds}`;
  }

  async delete(key: string): Promise<void> {
    this.deleted.push(key);
    this.objects.delete(key);
  }
}
