export * from './pg-comment.repository';
export * from './comment.query';
export * from './pg-comment.query';
