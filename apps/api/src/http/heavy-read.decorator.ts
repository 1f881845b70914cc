import { INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import type { HeavyReadClass } from '@board/kernel';
import { HEAVY_READ, HeavyReadInterceptor } from './heavy-read.interceptor';

export { HEAVY_READ };

/**
 * Declares a route a heavy read of a class (chart, usage, search, export, import): it runs in a
 * transaction of its own that holds one of the caller's few slots (a further one answers 429
 * with `Retry-After: 1`) and has the long statement limit (decisions.md › Fair use). That is all
 * a new heavy route has to do; `HeavyReadInterceptor` does the rest.
 *
 * The interceptor is the route's own, put first among its interceptors whatever the order of the
 * decorators, so a route's checks (`BeforeBody`) run inside the slot, as when it was global; every
 * other route has no interceptor to pass through.
 */
export const HeavyRead =
  (kind: HeavyReadClass): MethodDecorator =>
  (_target, _key, descriptor) => {
    const handler = descriptor.value as object;
    Reflect.defineMetadata(HEAVY_READ, kind, handler);
    const own = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? [];
    Reflect.defineMetadata(INTERCEPTORS_METADATA, [HeavyReadInterceptor, ...own], handler);
    return descriptor;
  };
