export * from './notification';
export * from './mentions';
export * from './intents';
export * from './assigned';
export * from './notification.repository';
