export * from './pg-list.repository';
export * from './list.query';
export * from './pg-list.query';
