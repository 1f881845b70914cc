/**
 * The client's address is read in one place, `clientAddress` (apps/api/src/http/client-address.ts),
 * which keeps it an IP address: Fastify's `request.ip` is X-Forwarded-For's text when the proxy is
 * trusted, and a throttle key or a log line must never be text a client chose.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const APP = join(ROOT, 'apps', 'api', 'src');
const HOME = join(APP, 'http', 'client-address.ts');

/** Lines that read Fastify's address directly. */
export function directReads(text: string): number[] {
  const found: number[] = [];
  text.split('\n').forEach((line, i) => {
    if (/\b(req|request|raw)\.(ip|ips)\b/.test(line)) found.push(i + 1);
  });
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.spec\.ts$/.test(name) ? [path] : [];
  });
}

describe('the client address', () => {
  it('is read through clientAddress only', () => {
    const offenders = sources(APP)
      .filter((path) => path !== HOME)
      .flatMap((path) => directReads(readFileSync(path, 'utf8')).map((line) => `${relative(ROOT, path)}:${line}`));
    expect(offenders).toEqual([]);
  });

  it('catches a direct read (planted)', () => {
    expect(directReads('const a = 1;\nawait this.accounts.login(body, req.ip);')).toEqual([2]);
    expect(directReads('log(`${request.ips}`)')).toEqual([1]);
  });
});
