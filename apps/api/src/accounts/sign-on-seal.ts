import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { SignOnChecks } from '@board/accounts';

/** How long a browser may take at the provider between setting out and coming back. */
export const SIGN_ON_LIFETIME_MS = 10 * 60 * 1000;

/**
 * The checks of a single sign-on on its way (state, nonce, PKCE verifier) ride in a cookie of the
 * browser that set out, sealed with AES-256-GCM under a key derived from the client secret —
 * neither in this process's memory nor in a table. The way back may reach any instance behind a
 * load balancer, and every instance holds the same secret and so opens the seal; nothing is
 * stored, so nothing is left to sweep after a sign-in that never comes back. The cookie ties the
 * way back to the browser that set out (a code sent to another browser is refused by its state),
 * the seal keeps the verifier unread and refuses a cookie made or changed elsewhere, and the
 * sealed expiry ends it after SIGN_ON_LIFETIME_MS whatever the browser keeps.
 */
export class SignOnSeal {
  private readonly key: Buffer;

  constructor(clientSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', clientSecret, 'task-board', 'single sign-on checks cookie', 32));
  }

  seal(checks: SignOnChecks, now: Date): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const plain = JSON.stringify({ ...checks, until: now.getTime() + SIGN_ON_LIFETIME_MS });
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
  }

  /** The checks a cookie carries; null when it is missing, forged, changed or past its time. */
  open(value: string | undefined, now: Date): SignOnChecks | null {
    const parts = value?.split('.') ?? [];
    if (parts.length !== 3) return null;
    try {
      const [iv, body, tag] = parts.map((part) => Buffer.from(part, 'base64url'));
      // A whole tag only: GCM would take a shortened one, and a short tag is a guessable one.
      if (iv.length !== 12 || tag.length !== 16) return null;
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: 16 });
      decipher.setAuthTag(tag);
      const opened = JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')) as Partial<SignOnChecks> & { until?: unknown };
      if (typeof opened.until !== 'number' || opened.until <= now.getTime()) return null;
      const { state, nonce, codeVerifier } = opened;
      return typeof state === 'string' && typeof nonce === 'string' && typeof codeVerifier === 'string' ? { state, nonce, codeVerifier } : null;
    } catch {
      return null;
    }
  }
}
