export * from './pg-view.repository';
export * from './view-task-page.query';
export * from './view-csv.query';
export * from './pg-view-task-page.query';
export * from './pg-view-csv.query';
