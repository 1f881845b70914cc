export * from './rules';
export * from './clean';
export * from './plan';
export * from './evaluate';
