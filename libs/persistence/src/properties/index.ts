export * from './property-defs.query';
