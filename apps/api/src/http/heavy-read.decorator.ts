import { SetMetadata } from '@nestjs/common';
import type { HeavyReadClass } from '@board/kernel';

export const HEAVY_READ = 'board:heavy-read';

/**
 * Declares a route a heavy read of a class (chart, usage, search, export, import): it runs in a
 * transaction of its own that holds one of the caller's few slots (a further one answers 429
 * with `Retry-After: 1`) and has the long statement limit (decisions.md › Fair use). That is all
 * a new heavy route has to do; `HeavyReadInterceptor` does the rest.
 */
export const HeavyRead = (kind: HeavyReadClass): MethodDecorator => SetMetadata(HEAVY_READ, kind);
