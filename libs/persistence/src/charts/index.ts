export * from './pg-chart.repository';
export * from './chart.query';
export * from './pg-chart.query';
