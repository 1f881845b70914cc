import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { BeforeBody, refuseNonObjectBody } from '../http/before-body';
import { RunsService } from './runs.service';

/**
 * The gate of a run's report, before its body is read (the contract's order): only the agent that
 * owns the run reports on it, and only while it is open. A report and a heartbeat share it.
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
    await this.runs.assertReporter(auth.project.id, auth.resourceId, auth.caller.id);
  }
}
