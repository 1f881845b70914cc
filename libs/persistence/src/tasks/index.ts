export * from './typeorm-task.repository';
export * from './task.queries';
export * from './board.queries';
export * from './task-value.store';
export * from './task-create.store';
export * from './board-lists';
export * from './project-facts.query';
export * from './value-names.query';
