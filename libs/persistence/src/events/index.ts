export * from './pg-notification.listener';
export * from './pg-presence.publisher';
