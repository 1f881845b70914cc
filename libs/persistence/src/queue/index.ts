export * from './pg-work-queue';
