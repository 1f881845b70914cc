export * from './health.query';
