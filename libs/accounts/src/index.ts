export * from './user';
export * from './email';
export * from './password';
export * from './secrets';
export * from './session';
export * from './user.repository';
export * from './reset-token.repository';
export * from './throttle';
