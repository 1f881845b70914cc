import { SetMetadata } from '@nestjs/common';

export const REPLICA_READ = 'board:replica-read';

/**
 * Declares a route a read that only shows data (the board, a view's tasks, the feed, search,
 * lists, charts, usage): with read replicas configured (DATABASE_READ_URL) a replica may answer it,
 * once it shows the caller's own writes and lags the primary by at most the bound. Everything
 * else, and anything a route writes, stays on the primary. `ReplicaReadInterceptor` does the rest.
 */
export const ReplicaRead = (): MethodDecorator => SetMetadata(REPLICA_READ, true);
