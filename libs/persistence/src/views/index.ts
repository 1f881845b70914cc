export * from './view.store';
export * from './view-tasks.query';
