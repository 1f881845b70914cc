export * from './run';
export * from './ports';
export * from './question';
export * from './links';
export * from './usage';
export * from './run.errors';
