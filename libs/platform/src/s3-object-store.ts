/**
 * The object store on an S3 bucket (AWS S3, MinIO and other S3-compatible servers), on AWS SDK v3.
 *
 * Signed URLs are made with a client of their own when the bucket is reached under another
 * address from browsers than from the service (S3_PUBLIC_ENDPOINT, e.g. `http://localhost:9000`
 * for a MinIO the service reaches as `http://minio:9000`): the host is part of the signature.
 */
import {
  CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ObjectStore, ReadGrant, StoredObject, UploadGrant } from '@board/files';

export interface S3ObjectStoreOptions {
  bucket: string;
  region?: string;
  /** The service's way to the bucket; unset means AWS S3 for the region. */
  endpoint?: string;
  /** The browsers' way to the bucket, for signed URLs; defaults to `endpoint`. */
  publicEndpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `bucket` in the path rather than the host name (MinIO and most S3-compatible servers). */
  forcePathStyle?: boolean;
}

export class S3ObjectStore extends ObjectStore {
  private readonly client: S3Client;
  private readonly signer: S3Client;
  private readonly bucket: string;

  constructor(options: S3ObjectStoreOptions) {
    super();
    this.bucket = options.bucket;
    this.client = makeClient(options, options.endpoint);
    const publicEndpoint = options.publicEndpoint ?? options.endpoint;
    this.signer = publicEndpoint === options.endpoint ? this.client : makeClient(options, publicEndpoint);
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }));
  }

  async head(key: string): Promise<StoredObject | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: Number(out.ContentLength ?? 0), contentType: out.ContentType ?? null };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async readRange(key: string, start: number, end: number): Promise<Uint8Array> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=${start}-${end}` }));
      return out.Body ? await out.Body.transformToByteArray() : new Uint8Array(0);
    } catch (error) {
      // An empty object has no byte 0: the range is "not satisfiable".
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 416) return new Uint8Array(0);
      throw error;
    }
  }

  async copy(from: string, to: string): Promise<boolean> {
    try {
      // Inside the bucket: the bytes never pass through the service; the type is copied with them.
      await this.client.send(
        new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: `${this.bucket}/${encodeURIComponent(from).replace(/%2F/g, '/')}` }),
      );
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  signedUploadUrl(key: string, grant: UploadGrant): Promise<string> {
    // Content type and length are signed headers: the bucket refuses a PUT that differs in either.
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: grant.contentType, ContentLength: grant.size });
    return getSignedUrl(this.signer, command, {
      expiresIn: grant.expiresInSeconds,
      signableHeaders: new Set(['content-type', 'content-length']),
    });
  }

  signedReadUrl(key: string, grant: ReadGrant): Promise<string> {
    const command = new GetObjectCommand({ Bucket: this.bucket, Key: key, ResponseContentDisposition: grant.contentDisposition });
    return getSignedUrl(this.signer, command, { expiresIn: grant.expiresInSeconds });
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** Closes the clients' sockets. */
  destroy(): void {
    this.client.destroy();
    if (this.signer !== this.client) this.signer.destroy();
  }
}

function makeClient(options: S3ObjectStoreOptions, endpoint: string | undefined): S3Client {
  const credentials =
    options.accessKeyId && options.secretAccessKey ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } : undefined;
  return new S3Client({
    region: options.region ?? 'us-east-1',
    endpoint,
    forcePathStyle: options.forcePathStyle ?? false,
    // Without these keys the SDK's default chain (environment, profile, instance role) is used.
    ...(credentials ? { credentials } : {}),
    // No CRC checksums on requests that do not need them: a signed PUT from a browser carries
    // none, and older S3-compatible servers refuse unknown checksum headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey';
}
