export * from './property-defs.query';
export * from './property.store';
export * from './property-list.query';
export * from './ship.store';
