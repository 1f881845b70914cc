/** What the bucket says about an object: its length and the content type it was stored with. */
export interface StoredObject {
  size: number;
  contentType: string | null;
}

/** The one upload a signed PUT allows: this key, this content type, exactly this many bytes. */
export interface UploadGrant {
  contentType: string;
  size: number;
  expiresInSeconds: number;
}

/** A signed GET: how long it works and the `Content-Disposition` the bucket answers with. */
export interface ReadGrant {
  contentDisposition: string;
  expiresInSeconds: number;
}

/**
 * The object store (an S3 bucket) as the domain needs it. Keys are the service's own; the bytes
 * of an attachment never pass through the service, except the head of an image it checks.
 */
export abstract class ObjectStore {
  /** Stores bytes under a key (tests, and tools that seed a bucket). */
  abstract put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** Length and type of the object, or null when the bucket holds none under the key. */
  abstract head(key: string): Promise<StoredObject | null>;
  /** Bytes `start` to `end` inclusive (a ranged GET); fewer when the object is shorter. */
  abstract readRange(key: string, start: number, end: number): Promise<Uint8Array>;
  /** Copies an object inside the bucket, its type with it; false when there is none under `from`. */
  abstract copy(from: string, to: string): Promise<boolean>;
  /** A URL that lets anyone PUT exactly the granted object, until it expires. */
  abstract signedUploadUrl(key: string, grant: UploadGrant): Promise<string>;
  /** A URL that lets anyone GET the object, until it expires. */
  abstract signedReadUrl(key: string, grant: ReadGrant): Promise<string>;
  /** Removes the object; a key the bucket does not hold counts as removed. */
  abstract delete(key: string): Promise<void>;
}
