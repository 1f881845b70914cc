export * from './health.query';
export * from './pool-use.query';
