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

export function setSessionCookie(reply: FastifyReply, sessionId: string, secure: boolean): void {
  const parts = [`${SESSION_COOKIE}=${sessionId}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${SESSION_LIFETIME_MS / 1000}`];
  if (secure) parts.push('Secure');
  reply.header('set-cookie', parts.join('; '));
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  const parts = [`${SESSION_COOKIE}=`, 'Path=/', 'HttpOnly', 'SameSite=Lax', 'Max-Age=0', 'Expires=Thu, 01 Jan 1970 00:00:00 GMT'];
  if (secure) parts.push('Secure');
  reply.header('set-cookie', parts.join('; '));
}
