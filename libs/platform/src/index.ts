export * from './argon2-password-hasher';
export * from './webhook-sender';
export * from './s3-object-store';
export * from './smtp-mailer';
export * from './seclists-common-passwords';
export * from './prom-metrics';
export * from './openid-sign-on';
