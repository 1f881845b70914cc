export * from './property-defs.query';
export * from './pg-property.repository';
export * from './property-list.query';
