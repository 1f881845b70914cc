export * from './notifications.sql';
export * from './pg-notification.writer';
export * from './notification-inbox.query';
export * from './pg-notification.repository';
export * from './pg-notification-mail.outbox';
export * from './pg-notification-inbox.query';
