export * from './health.query';
export * from './pool-use.query';
export * from './instances.sql';
export * from './pg-instance-registry';
