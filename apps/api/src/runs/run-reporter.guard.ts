import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { bodyObject } from '../http/json-body';
import { RunsService } from './runs.service';

/**
 * The gate of a run's report, before its body is read (the contract's order): only the agent that
 * owns the run reports on it, and only while it is open. A report and a heartbeat share it. Runs
 * after the global AccessGuard, which has checked the run's project and set the caller.
 */
@Injectable()
export class RunReporterGuard implements CanActivate {
  constructor(private readonly runs: RunsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    // A body that is no JSON object is refused first, as for every route.
    bodyObject(request.body);
    const auth = request.auth;
    if (!auth?.project || !auth.resourceId) throw new Error('RunReporterGuard used on a route without a run gate');
    await this.runs.assertReporter(auth.project.id, auth.resourceId, auth.caller.id);
    return true;
  }
}
