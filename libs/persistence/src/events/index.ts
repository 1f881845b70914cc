export * from './pg-notification.listener';
export * from './presence.publisher';
