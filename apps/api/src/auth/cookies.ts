import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE, SESSION_LIFETIME_MS } from '@board/accounts';

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return undefined;
}

export const readSessionCookie = (request: FastifyRequest): string | undefined => readCookie(request, SESSION_COOKIE) || undefined;

/** An HttpOnly, SameSite=Lax cookie (Secure in production); a lifetime of 0 clears it. */
function writeCookie(reply: FastifyReply, name: string, value: string, path: string, seconds: number, secure: boolean): void {
  const parts = [`${name}=${value}`, `Path=${path}`, 'HttpOnly', 'SameSite=Lax', `Max-Age=${seconds}`];
  if (seconds === 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (secure) parts.push('Secure');
  reply.header('set-cookie', parts.join('; '));
}

export function setSessionCookie(reply: FastifyReply, sessionId: string, secure: boolean): void {
  writeCookie(reply, SESSION_COOKIE, sessionId, '/', SESSION_LIFETIME_MS / 1000, secure);
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  writeCookie(reply, SESSION_COOKIE, '', '/', 0, secure);
}

/**
 * A single sign-on's sealed checks, sent back only to the two single sign-on routes. SameSite=Lax
 * still sends it on the provider's redirect back, a top-level GET navigation.
 */
export const SIGN_ON_COOKIE = 'service_oidc';
const SIGN_ON_PATH = '/api/auth/oidc';

export function setSignOnCookie(reply: FastifyReply, sealed: string, seconds: number, secure: boolean): void {
  writeCookie(reply, SIGN_ON_COOKIE, sealed, SIGN_ON_PATH, seconds, secure);
}

export function clearSignOnCookie(reply: FastifyReply, secure: boolean): void {
  writeCookie(reply, SIGN_ON_COOKIE, '', SIGN_ON_PATH, 0, secure);
}
