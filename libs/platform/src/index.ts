export * from './argon2-password-hasher';
export * from './webhook-sender';
export * from './smtp-mailer';
