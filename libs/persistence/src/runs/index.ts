export * from './pg-run.repository';
export * from './run.query';
export * from './pg-work-queue';
export * from './pg-usage.repository';
export * from './usage.query';
