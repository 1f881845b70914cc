export * from './view.store';
