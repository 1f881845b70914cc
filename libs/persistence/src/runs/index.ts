export * from './typeorm-run.repository';
export * from './run.queries';
