export * from './typeorm-task.repository';
export * from './task.queries';
export * from './board.queries';
