export * from './view';
export * from './card-view';
