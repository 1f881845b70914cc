export * from './typeorm-task.repository';
export * from './task.query';
export * from './board.query';
export * from './task-value.repository';
export * from './task-create.repository';
export * from './board-lists';
export * from './project-facts.query';
export * from './value-names.query';
