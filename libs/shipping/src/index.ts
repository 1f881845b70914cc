export * from './ship';
