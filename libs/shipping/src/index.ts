export * from './ship';
export * from './ship.repository';
