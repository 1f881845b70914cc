import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put, Query } from '@nestjs/common';
import { Admin, HumanMember, Member, VIEW } from '../auth/access.decorator';
import { ResourceId, ProjectCaller, ProjectCallerOf } from '../auth/auth-context';
import { CreateViewBody, PatchCardViewBody, PatchViewCardViewBody, PutLensBody, UpdateViewBody, ViewTasksQuery } from './views.dto';
import { ViewsService } from './views.service';
import { ReplicaRead } from '../http/replica-read.decorator';

@Controller()
export class ViewsController {
  constructor(private readonly views: ViewsService) {}

  @Member()
  @Post('projects/:projectId/views')
  @HttpCode(201)
  async create(@ProjectCallerOf() caller: ProjectCaller, @Body() body: CreateViewBody) {
    return { view: await this.views.create(caller, body) };
  }

  @Member(VIEW)
  @Patch('views/:viewId')
  async update(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() viewId: string, @Body() body: UpdateViewBody) {
    return { view: await this.views.update(caller, viewId, body) };
  }

  @Admin('delete views', VIEW)
  @Delete('views/:viewId')
  async remove(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() viewId: string) {
    await this.views.remove(caller, viewId);
    return { ok: true };
  }

  @HumanMember(VIEW)
  @Put('views/:viewId/lens')
  async lens(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() viewId: string, @Body() body: PutLensBody) {
    return { view: await this.views.putLens(caller, viewId, body) };
  }

  @HumanMember(VIEW)
  @Post('views/:viewId/lens/promote')
  @HttpCode(200)
  async promote(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() viewId: string) {
    return { view: await this.views.promote(caller, viewId) };
  }

  @Member(VIEW)
  @ReplicaRead()
  @Get('views/:viewId/tasks')
  tasks(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() viewId: string, @Query() query: ViewTasksQuery) {
    return this.views.tasksOf(caller, viewId, query);
  }

  @Admin('change the card view')
  @Patch('projects/:projectId/card-view')
  projectCardView(@ProjectCallerOf() caller: ProjectCaller, @Body() body: PatchCardViewBody) {
    return this.views.patchProjectCardView(caller, body);
  }

  @Admin('change the card view', VIEW)
  @Patch('views/:viewId/card-view')
  viewCardView(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() viewId: string, @Body() body: PatchViewCardViewBody) {
    return this.views.patchViewCardView(caller, viewId, body);
  }
}
