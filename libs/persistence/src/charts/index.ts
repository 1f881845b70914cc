export * from './chart.store';
export * from './chart.queries';
