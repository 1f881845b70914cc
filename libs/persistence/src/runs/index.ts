export * from './pg-run.repository';
export * from './run.query';
