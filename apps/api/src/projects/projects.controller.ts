import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import { Admin, Agent, Human, HumanMember, Member, Owner } from '../auth/access.decorator';
import { Auth, AuthContext, ByToken, ClientId, ProjectScope, TokenAuth } from '../auth/auth-context';
import { CreateProjectBody, HandOverBody, PositionBody, RulesBody, UpdateProjectBody } from './projects.dto';
import { ProjectsService } from './projects.service';

@Controller()
export class ProjectsController {
  constructor(
    private readonly projects: ProjectsService,
  ) {}

  @Human()
  @Get('projects')
  async list(@Auth() auth: AuthContext) {
    return { projects: await this.projects.list(auth) };
  }

  @Human()
  @Post('projects')
  @HttpCode(201)
  async create(@Auth() auth: AuthContext, @Body() body: CreateProjectBody) {
    return { project: await this.projects.create(auth, body) };
  }

  @Admin('change the project settings')
  @Patch('projects/:projectId')
  async update(@Auth() auth: AuthContext, @ProjectScope() scope: { id: string }, @Body() body: UpdateProjectBody, @ClientId() clientId: string | null) {
    return { project: await this.projects.update(auth, scope.id, body, clientId) };
  }

  @Owner('delete the project')
  @Delete('projects/:projectId')
  async remove(@ProjectScope() scope: { id: string }) {
    await this.projects.remove(scope.id);
    return { ok: true };
  }

  @Owner('hand the project over')
  @Post('projects/:projectId/hand-over')
  @HttpCode(200)
  async handOver(@Auth() auth: AuthContext, @ProjectScope() scope: { id: string }, @Body() body: HandOverBody, @ClientId() clientId: string | null) {
    await this.projects.handOver(auth, scope.id, body, clientId);
    return { ok: true };
  }

  @HumanMember()
  @Put('projects/:projectId/position')
  async place(@Auth() auth: AuthContext, @ProjectScope() scope: { id: string }, @Body() body: PositionBody) {
    await this.projects.place(auth, scope.id, body);
    return { ok: true };
  }

  @Member()
  @Get('projects/:projectId/rules')
  async rules(@ProjectScope() scope: { id: string }) {
    return { rules: await this.projects.rules(scope.id) };
  }

  @Admin('change the agent rules')
  @Put('projects/:projectId/rules')
  async writeRules(@Auth() auth: AuthContext, @ProjectScope() scope: { id: string }, @Body() body: RulesBody, @ClientId() clientId: string | null) {
    return { rules: await this.projects.writeRules(auth, scope.id, body, clientId) };
  }

  /** An agent's own view of itself and its one project. */
  @Agent()
  @Get('agent/me')
  agentMe(@ByToken() auth: TokenAuth) {
    return this.projects.agentMe(auth);
  }
}
