export * from './database';
export * from './data-source';
export * from './embedded-postgres';
export * from './persistence.module';
export * from './projects/project.queries';
export * from './accounts/typeorm-throttle.store';
