export * from './chart.repository';
export * from './chart.query';
