export * from './typeorm-attachment.repository';
export * from './bucket-cleanup.store';
export * from './attachment.queries';
