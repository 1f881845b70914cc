export * from './ship';
export * from './ship.repository';
export * from './ship.errors';
