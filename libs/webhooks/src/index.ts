export * from './address-rules';
export * from './webhook';
export * from './webhook.repository';
export * from './webhook-sender';
export * from './webhook.errors';
