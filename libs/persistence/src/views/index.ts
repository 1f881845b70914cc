export * from './pg-view.repository';
export * from './view-task-page.query';
export * from './view-csv.query';
