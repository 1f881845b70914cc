export * from './list';
export * from './list.repository';
