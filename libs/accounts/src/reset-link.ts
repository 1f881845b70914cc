import { DAY } from '@board/kernel';

/** A reset link works once, for 24 hours; a newer one for the same person voids it. */
export const RESET_LIFETIME_MS = DAY;

/** `<SERVICE_URL>/reset?token=svcr_…`, built from the configured address, never from request headers. */
export const resetUrl = (serviceUrl: string, token: string): string => `${serviceUrl.replace(/\/+$/, '')}/reset?token=${token}`;

/** Where a person invited by email signs up: `<SERVICE_URL>/?invite=<email>` (the page opens its sign-up with the email). */
export const signUpUrl = (serviceUrl: string, email: string): string =>
  `${serviceUrl.replace(/\/+$/, '')}/?invite=${encodeURIComponent(email)}`;
