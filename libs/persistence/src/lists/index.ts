export * from './list.repository';
export * from './list.query';
