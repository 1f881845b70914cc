export * from './pg-chart.repository';
export * from './chart.query';
