export * from './run';
export * from './ports';
