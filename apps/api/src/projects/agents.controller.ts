import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseInterceptors } from '@nestjs/common';
import { Admin } from '../auth/access.decorator';
import { ClientId, ProjectScope } from '../auth/auth-context';
import { CreateAgentBody, UpdateAgentBody } from './agents.dto';
import { AgentFoundCheck } from './agent-found.check';
import { AgentsService } from './agents.service';

@Controller('projects/:projectId')
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Admin('add agents')
  @Post('agents')
  @HttpCode(201)
  create(@ProjectScope() scope: { id: string }, @Body() body: CreateAgentBody, @ClientId() clientId: string | null) {
    return this.agents.create(scope.id, body, clientId);
  }

  @Admin('change agents')
  @Patch('agents/:agentId')
  @UseInterceptors(AgentFoundCheck)
  update(@ProjectScope() scope: { id: string }, @Param('agentId') agentId: string, @Body() body: UpdateAgentBody, @ClientId() clientId: string | null) {
    return this.agents.update(scope.id, agentId, body, clientId);
  }

  @Admin('remove agents')
  @Delete('agents/:agentId')
  async remove(@ProjectScope() scope: { id: string }, @Param('agentId') agentId: string, @ClientId() clientId: string | null) {
    await this.agents.remove(scope.id, agentId, clientId);
    return { ok: true };
  }

  @Admin('see tokens')
  @Get('tokens')
  async tokens(@ProjectScope() scope: { id: string }) {
    return { tokens: await this.agents.list(scope.id) };
  }

  @Admin('make tokens')
  @Post('agents/:agentId/tokens')
  @HttpCode(201)
  newToken(@ProjectScope() scope: { id: string }, @Param('agentId') agentId: string) {
    return this.agents.newToken(scope.id, agentId);
  }

  @Admin('revoke tokens')
  @Delete('tokens/:tokenId')
  async revoke(@ProjectScope() scope: { id: string }, @Param('tokenId') tokenId: string) {
    await this.agents.revoke(scope.id, tokenId);
    return { ok: true };
  }
}
