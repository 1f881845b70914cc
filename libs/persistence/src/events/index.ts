export * from './pg-notification.listener';
