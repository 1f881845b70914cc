export * from './pg-checklist.repository';
export * from './pg-comment.repository';
export * from './discussion.query';
