export * from './property-type';
export * from './option-name';
export * from './property';
export * from './value';
export * from './visibility';
