export * from './pg-checklist.repository';
