export * from './list.store';
export * from './list.queries';
