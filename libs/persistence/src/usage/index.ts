export * from './usage.query';
export * from './pg-usage.query';
