export * from './pg-webhook.repository';
export * from './webhooks.table';
export * from './webhook-deliveries.table';
export * from './delivery-backlog.query';
