import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppConfig } from '../config/app-config';

/**
 * The board page (apps/web, built by `npm run build` into dist/web) served by the service itself
 * at `/`. Hashed assets under /assets are cached for a year; index.html is never stored, so a
 * new build is picked up on the next load. Every path outside /api that is not a file answers
 * index.html (the page routes itself); /api keeps the JSON 404.
 */
export async function registerWebPage(fastify: FastifyInstance, config: AppConfig): Promise<void> {
  const root = webRoot();
  if (!root) return;
  const indexHtml = readFileSync(join(root, 'index.html'));
  const csp = pageCsp(config);
  await fastify.register(fastifyStatic, {
    root,
    prefix: '/',
    // Files are known at start (the build comes first); everything else goes to the fallback.
    wildcard: false,
    index: false,
    cacheControl: false,
    setHeaders(reply, path) {
      reply.header(
        'cache-control',
        /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      );
    },
  });
  const sendIndex = (reply: FastifyReply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', csp)
      .send(indexHtml);
  fastify.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    handler: (request, reply) => {
      const path = request.url.split('?')[0];
      if (path === '/api' || path.startsWith('/api/') || /^\/assets\//.test(path)) return reply.callNotFound();
      return sendIndex(reply);
    },
  });
}

/** Only the page's own origin, plus the bucket the browser uploads to and reads images from. */
export function pageCsp(config: AppConfig): string {
  const bucket = bucketOrigin(config);
  const extra = bucket ? ` ${bucket}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${extra}`,
    `media-src 'self'${extra}`,
    `connect-src 'self'${extra}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The bucket's origin as browsers reach it: the signed upload and download URLs are made for
 * S3_PUBLIC_ENDPOINT when it is set (MinIO behind the compose name `minio` is `localhost:9000`
 * to a browser), so the policy names that address, else S3_ENDPOINT, else AWS's own.
 */
function bucketOrigin(config: AppConfig): string | null {
  if (!config.S3_BUCKET) return null;
  const endpoint = config.S3_PUBLIC_ENDPOINT ?? config.S3_ENDPOINT;
  try {
    if (endpoint) {
      const url = new URL(endpoint);
      if (!config.S3_FORCE_PATH_STYLE) return `${url.protocol}//${config.S3_BUCKET}.${url.host}`;
      return url.origin;
    }
    const region = config.S3_REGION || 'us-east-1';
    return `https://${config.S3_BUCKET}.s3.${region}.amazonaws.com`;
  } catch {
    return null;
  }
}

/** dist/web beside the repository's package.json, whether running from source (tests) or dist. */
function webRoot(): string | null {
  if (process.env.SERVICE_WEB_DIR) {
    const dir = resolve(process.env.SERVICE_WEB_DIR);
    return existsSync(join(dir, 'index.html')) ? dir : null;
  }
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'apps'))) {
      const web = join(dir, 'dist', 'web');
      return existsSync(join(web, 'index.html')) ? web : null;
    }
    dir = dirname(dir);
  }
  return null;
}
