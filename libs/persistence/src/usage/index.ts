export * from './usage.query';
