export * from './property-defs.query';
export * from './pg-property.repository';
export * from './property-list.query';
export * from './pg-property-defs.query';
export * from './pg-property-list.query';
