export * from './pg-run.repository';
export * from './run.query';
export * from './pg-usage.repository';
export * from './pg-run.query';
