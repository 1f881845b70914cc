export * from './webhook.repository';
export * from './webhooks.table';
export * from './webhook-deliveries.table';
