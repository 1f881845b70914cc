/**
 * A real S3 server for the file tests: s3rver, started in this process on a free port over a
 * throw-away directory. It checks SigV4 signatures (headers and presigned query strings) with
 * its one account `S3RVER` / `S3RVER`.
 */
import S3rver from '@20minutes/s3rver';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3ObjectStore } from '@board/platform';

export interface TestBucket {
  endpoint: string;
  bucket: string;
  /** The service's S3_* settings for this bucket. */
  env: Record<string, string>;
  /** A client of the bucket of its own, to look at and put objects behind the service's back. */
  store: S3ObjectStore;
  close(): Promise<void>;
}

export async function startS3(bucket = 'board-files'): Promise<TestBucket> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  const env = {
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
  const store = new S3ObjectStore({
    bucket, endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true,
  });
  return {
    endpoint,
    bucket,
    env,
    store,
    async close() {
      store.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
