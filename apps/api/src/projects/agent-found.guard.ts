import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { bodyObject } from '../http/json-body';
import { AgentsService } from './agents.service';

/** A change of an agent finds the agent of the path (400, 404) before its body is read (the contract's order). */
@Injectable()
export class AgentFoundGuard implements CanActivate {
  constructor(private readonly agents: AgentsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    // A body that is no JSON object is refused first, as for every route.
    bodyObject(request.body);
    const projectId = request.auth?.project?.id;
    if (!projectId) throw new Error('AgentFoundGuard used on a route without a project gate');
    await this.agents.assertFound(projectId, (request.params as Record<string, string | undefined>).agentId ?? '');
    return true;
  }
}
