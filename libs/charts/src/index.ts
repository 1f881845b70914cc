export * from './chart';
export * from './days';
export * from './series';
export * from './feed';
export * from './chart.repository';
export * from './chart.errors';
