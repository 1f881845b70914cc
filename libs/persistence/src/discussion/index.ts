export * from './typeorm-checklist.repository';
export * from './typeorm-comment.repository';
export * from './discussion.queries';
