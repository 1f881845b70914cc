export * from './health.query';
export * from './pg-health.query';
