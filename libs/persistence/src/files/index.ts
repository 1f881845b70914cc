export * from './pg-attachment.repository';
export * from './pg-bucket-cleanup.repository';
export * from './attachment.query';
export * from './pg-attachment.query';
