export * from './trello-export';
export * from './label-colors';
export * from './import-plan';
export * from './import.repository';
export * from './import.errors';
export * from './board-export';
export * from './board-export-plan';
