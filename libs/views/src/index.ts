export * from './view';
export * from './card-view';
export * from './view.repository';
export * from './view-order';
export * from './view-csv';
export * from './view.errors';
