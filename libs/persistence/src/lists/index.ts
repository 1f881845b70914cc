export * from './pg-list.repository';
export * from './list.query';
