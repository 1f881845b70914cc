export * from './task';
export * from './links';
export * from './over';
export * from './checklist-item';
export * from './comment';
export * from './ports';
export * from './project-room';
export * from './task.errors';
