export * from './pg-view.repository';
export * from './view-tasks.query';
