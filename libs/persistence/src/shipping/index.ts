export * from './pg-ship.repository';
