import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether an `Authorization` header carries the metrics token: null when it does, else the
 * refusal's code. The two are compared as digests of equal length in constant time, so the time
 * an answer takes tells nothing about how much of a guess was right.
 */
export function scraperRefusal(header: unknown, token: string): 'metrics.token_missing' | 'metrics.token_wrong' | null {
  const bearer = typeof header === 'string' ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header) : null;
  if (!bearer) return 'metrics.token_missing';
  return timingSafeEqual(digest(bearer[1]), digest(token)) ? null : 'metrics.token_wrong';
}
