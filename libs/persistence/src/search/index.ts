export * from './search.query';
export * from './snippet';
