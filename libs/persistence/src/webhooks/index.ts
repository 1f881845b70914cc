export * from './webhook.repository';
