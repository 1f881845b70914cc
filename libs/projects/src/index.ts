export * from './role';
export * from './project-key';
export * from './project';
export * from './membership';
export * from './project-defaults';
export * from './ports';
export * from './invite-mail';
export * from './project-template';
