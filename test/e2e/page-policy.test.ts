/**
 * The page's policy names the bucket browsers use (decisions › Fair use): S3_PUBLIC_ENDPOINT when
 * set, else S3_ENDPOINT — in the docker-compose layout the service reaches MinIO at
 * `http://minio:9000` and browsers at `http://localhost:9000`, where the signed URLs point.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startTestApp, TestApp } from '../support/test-app';

describe('the page policy names the bucket browsers use', () => {
  let dir: string;
  let before: string | undefined;
  beforeAll(() => {
    // A stand-in build of the page: the policy is the server's, whatever the page holds.
    dir = mkdtempSync(join(tmpdir(), 'page-policy-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Board</title>');
    before = process.env.SERVICE_WEB_DIR;
    process.env.SERVICE_WEB_DIR = dir;
  });
  afterAll(() => {
    if (before === undefined) delete process.env.SERVICE_WEB_DIR;
    else process.env.SERVICE_WEB_DIR = before;
    rmSync(dir, { recursive: true, force: true });
  });

  async function policyWith(env: Record<string, string>): Promise<Record<string, string>> {
    const t: TestApp = await startTestApp({ env: { S3_BUCKET: 'board', S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', ...env } });
    try {
      const res = await fetch(t.api.replace(/\/api$/, '/'));
      expect(res.status).toBe(200);
      const policy = res.headers.get('content-security-policy') ?? '';
      return Object.fromEntries(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values.join(' ')]));
    } finally {
      await t.close();
    }
  }

  it('names S3_PUBLIC_ENDPOINT when it is set: the docker-compose layout, read from docker-compose.yml', async () => {
    const compose = readFileSync(resolve(__dirname, '..', '..', 'docker-compose.yml'), 'utf8');
    const setting = (name: string) => new RegExp(`^\\s+${name}:\\s*"?([^"\\s]+)"?\\s*$`, 'm').exec(compose)?.[1] ?? '';
    const env = { S3_ENDPOINT: setting('S3_ENDPOINT'), S3_PUBLIC_ENDPOINT: setting('S3_PUBLIC_ENDPOINT'), S3_FORCE_PATH_STYLE: setting('S3_FORCE_PATH_STYLE') };
    expect(env).toEqual({ S3_ENDPOINT: 'http://minio:9000', S3_PUBLIC_ENDPOINT: 'http://localhost:9000', S3_FORCE_PATH_STYLE: 'true' });
    // MinIO lets the board's page (SERVICE_URL) send its uploads there.
    expect(setting('MINIO_API_CORS_ALLOW_ORIGIN')).toBe(setting('SERVICE_URL'));
    const policy = await policyWith(env);
    for (const directive of ['img-src', 'media-src', 'connect-src']) {
      expect(policy[directive]).toBe(`'self'${directive === 'img-src' ? ' data: blob:' : ''} http://localhost:9000`);
      expect(policy[directive]).not.toContain('minio');
    }
  });

  it('names the public endpoint with the bucket in the host when paths are not forced', async () => {
    const policy = await policyWith({ S3_ENDPOINT: 'http://minio.internal:9000', S3_PUBLIC_ENDPOINT: 'https://files.example.com' });
    expect(policy['connect-src']).toBe("'self' https://board.files.example.com");
  });

  it('names S3_ENDPOINT when no public endpoint is set', async () => {
    const policy = await policyWith({ S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' });
    expect(policy['connect-src']).toBe("'self' http://minio:9000");
  });
});
