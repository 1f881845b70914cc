export * from './list';
export * from './list.repository';
export * from './list.errors';
