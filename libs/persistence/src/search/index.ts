export * from './search.query';
export * from './snippet';
export * from './pg-search.query';
