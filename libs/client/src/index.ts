export * from './board-client';
export type * from './types';
export { BoardApiError } from './errors';
export type { ChangeEvent, PresenceEvent, StreamEvent, StreamOptions } from './stream';
export { verifyWebhook, type VerifyWebhookInput, type VerifyWebhookResult } from './webhook';
export type { components, paths } from './schema';
