import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { BeforeBody, pathParam, refuseNonObjectBody } from '../http/before-body';
import { AgentsService } from './agents.service';

/** A change of an agent finds the agent of the path (400, 404) before its body is read (the contract's order). */
@Injectable()
export class AgentFoundCheck extends BeforeBody {
  constructor(private readonly agents: AgentsService) {
    super();
  }

  protected async check(request: FastifyRequest): Promise<void> {
    refuseNonObjectBody(request);
    const projectId = request.auth?.project?.id;
    if (!projectId) throw new Error('AgentFoundCheck runs behind a project gate');
    await this.agents.assertFound(projectId, pathParam(request, 'agentId') ?? '');
  }
}
