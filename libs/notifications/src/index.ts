export * from './notification';
export * from './mentions';
export * from './intents';
export * from './notification.repository';
export * from './notification.errors';
