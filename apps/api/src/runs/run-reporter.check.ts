import { createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { VersionedRun } from '@board/runs';
import { BeforeBody, refuseNonObjectBody } from '../http/before-body';
import { RunsService } from './runs.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The run as RunReporterCheck read it, with its row version. */
    checkedRun?: VersionedRun;
  }
}

/**
 * The gate of a run's report, before its body is read (the contract's order): only the agent that
 * owns the run reports on it, and only while it is open. A report and a heartbeat share it. The
 * run it read goes to the report (`@CheckedRun()`), which writes it back only while its row is
 * still that version, so the usual report reads the run once.
 */
@Injectable()
export class RunReporterCheck extends BeforeBody {
  constructor(private readonly runs: RunsService) {
    super();
  }

  protected async check(request: FastifyRequest): Promise<void> {
    refuseNonObjectBody(request);
    const { auth } = request;
    // The access guard (a run's project gate) has set all three.
    if (!auth?.project || !auth.resourceId) throw new Error('RunReporterCheck runs behind the run gate');
    request.checkedRun = await this.runs.assertReporter(auth.project.id, auth.resourceId, auth.caller.id);
  }
}

/** The run RunReporterCheck read for this request (none on a route without the check). */
export const CheckedRun = createParamDecorator((_: unknown, ctx: ExecutionContext): VersionedRun | undefined => ctx.switchToHttp().getRequest<FastifyRequest>().checkedRun);
