export * from './pg-comment.repository';
export * from './comment.query';
