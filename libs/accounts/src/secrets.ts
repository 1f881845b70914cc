import { createHash, randomBytes } from 'node:crypto';

/** Random secrets carry 256 bits; only their SHA-256 digest is ever stored. */
export const newSecret = (prefix = ''): string => prefix + randomBytes(32).toString('base64url');

export const digestOf = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export const AGENT_TOKEN_PREFIX = 'svc_';
export const RESET_TOKEN_PREFIX = 'svcr_';
export const WEBHOOK_SECRET_PREFIX = 'svcs_';
