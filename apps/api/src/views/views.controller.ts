import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put, Query } from '@nestjs/common';
import { Admin, HumanMember, Member, VIEW } from '../auth/access.decorator';
import { ResourceId, Writer, WriterOf } from '../auth/auth-context';
import { CreateViewBody, PatchCardViewBody, PutLensBody, UpdateViewBody, ViewTasksQuery } from './views.dto';
import { ViewsService } from './views.service';

@Controller()
export class ViewsController {
  constructor(private readonly views: ViewsService) {}

  @Member()
  @Post('projects/:projectId/views')
  @HttpCode(201)
  async create(@WriterOf() writer: Writer, @Body() body: CreateViewBody) {
    return { view: await this.views.create(writer, body) };
  }

  @Member(VIEW)
  @Patch('views/:viewId')
  async update(@WriterOf() writer: Writer, @ResourceId() viewId: string, @Body() body: UpdateViewBody) {
    return { view: await this.views.update(writer, viewId, body) };
  }

  @Admin('delete views', VIEW)
  @Delete('views/:viewId')
  async remove(@WriterOf() writer: Writer, @ResourceId() viewId: string) {
    await this.views.remove(writer, viewId);
    return { ok: true };
  }

  @HumanMember(VIEW)
  @Put('views/:viewId/lens')
  async lens(@WriterOf() writer: Writer, @ResourceId() viewId: string, @Body() body: PutLensBody) {
    return { view: await this.views.putLens(writer, viewId, body) };
  }

  @HumanMember(VIEW)
  @Post('views/:viewId/lens/promote')
  @HttpCode(200)
  async promote(@WriterOf() writer: Writer, @ResourceId() viewId: string) {
    return { view: await this.views.promote(writer, viewId) };
  }

  @Member(VIEW)
  @Get('views/:viewId/tasks')
  tasks(@WriterOf() writer: Writer, @ResourceId() viewId: string, @Query() query: ViewTasksQuery) {
    return this.views.tasksOf(writer, viewId, query);
  }

  @Admin('change the card view')
  @Patch('projects/:projectId/card-view')
  projectCardView(@WriterOf() writer: Writer, @Body() body: PatchCardViewBody) {
    return this.views.patchProjectCardView(writer, body);
  }

  @Admin('change the card view', VIEW)
  @Patch('views/:viewId/card-view')
  viewCardView(@WriterOf() writer: Writer, @ResourceId() viewId: string, @Body() body: PatchCardViewBody) {
    return this.views.patchViewCardView(writer, viewId, body);
  }
}
