export * from './webhook.store';
