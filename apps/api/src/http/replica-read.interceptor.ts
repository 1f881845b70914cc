import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { from, lastValueFrom, Observable } from 'rxjs';
import { ReplicaReads } from '@board/kernel';
import { REPLICA_READ } from './replica-read.decorator';
import { sentPositions } from './write-position';

/**
 * With read replicas configured, runs every request under its caller's track (what it has seen,
 * from `x-service-lsn` or `service_lsn`; where its own writes end, for the answer) and a route
 * declared `@ReplicaRead()` as a read a replica may answer. It runs before the heavy-read slot is
 * taken, so a heavy read sent to a replica takes its slot there. Without replicas every request
 * passes straight through.
 */
@Injectable()
export class ReplicaReadInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly reads: ReplicaReads,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.reads.enabled) return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const track = this.reads.track(sentPositions(request));
    request.writeTrack = track;
    const replica = this.reflector.get<boolean | undefined>(REPLICA_READ, context.getHandler()) === true;
    return from(this.reads.run(track, replica, () => lastValueFrom(next.handle(), { defaultValue: undefined })));
  }
}
