export * from './trello-export';
export * from './label-colors';
export * from './import-plan';
export * from './import.repository';
export * from './import.errors';
