export * from './pg-task.repository';
export * from './task.query';
export * from './board.query';
export * from './pg-task-value.repository';
export * from './pg-task-create.repository';
export * from './board-lists';
export * from './project-facts.query';
export * from './value-names.query';
