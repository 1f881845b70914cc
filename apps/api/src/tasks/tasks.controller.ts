import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { HumanMember, Member, RESTORABLE_TASK, TASK } from '../auth/access.decorator';
import { ResourceId, ProjectCaller, ProjectCallerOf } from '../auth/auth-context';
import { BulkService } from './bulk.service';
import { LinksService } from './links.service';
import { TasksService } from './tasks.service';
import { HeavyRead } from '../http/heavy-read.decorator';
import { AddBlockerBody, BulkArchiveBody, BulkValuesBody, CreateTaskBody, EditTaskBody, MoveTaskBody, PutValueBody, SearchQuery, SetParentBody } from './tasks.dto';
import { ReplicaRead } from '../http/replica-read.decorator';

@Controller()
export class TasksController {
  constructor(
    private readonly tasks: TasksService,
    private readonly links: LinksService,
    private readonly bulk: BulkService,
  ) {}

  @Member()
  @Post('projects/:projectId/tasks')
  @HttpCode(201)
  async create(@ProjectCallerOf() caller: ProjectCaller, @Body() body: CreateTaskBody) {
    return { task: await this.tasks.create(caller, body.command()) };
  }

  @Member()
  @Post('projects/:projectId/tasks/values')
  @HttpCode(200)
  bulkValues(@ProjectCallerOf() caller: ProjectCaller, @Body() body: BulkValuesBody) {
    return this.bulk.values(caller, body.command());
  }

  @HumanMember()
  @Post('projects/:projectId/archive')
  @HttpCode(200)
  async bulkArchive(@ProjectCallerOf() caller: ProjectCaller, @Body() body: BulkArchiveBody) {
    return { archived: await this.bulk.archive(caller, body.command()) };
  }

  @Member()
  @Get('projects/:projectId/deleted')
  deleted(@ProjectCallerOf() caller: ProjectCaller) {
    return this.tasks.deleted(caller);
  }

  @Member()
  @HeavyRead('search')
  @ReplicaRead()
  @Get('projects/:projectId/search')
  search(@ProjectCallerOf() caller: ProjectCaller, @Query() query: SearchQuery) {
    return this.tasks.search(caller, query.q);
  }

  @Member(TASK)
  @Get('tasks/:taskId')
  async read(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() taskId: string) {
    return { task: await this.tasks.read(caller, taskId) };
  }

  @Member(TASK)
  @Patch('tasks/:taskId')
  async edit(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() taskId: string, @Body() body: EditTaskBody) {
    await this.tasks.edit(caller, taskId, body.command());
    return { ok: true };
  }

  @Member(TASK)
  @Delete('tasks/:taskId')
  async remove(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() taskId: string) {
    return { ok: true, goesAt: await this.tasks.remove(caller, taskId) };
  }

  @Member(RESTORABLE_TASK)
  @Post('tasks/:taskId/restore')
  @HttpCode(200)
  async restore(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() taskId: string) {
    await this.tasks.restore(caller, taskId);
    return { ok: true };
  }

  @Member(TASK)
  @Post('tasks/:taskId/archive')
  @HttpCode(200)
  async archive(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() taskId: string) {
    await this.tasks.setArchived(caller, taskId, true);
    return { ok: true };
  }

  @Member(TASK)
  @Delete('tasks/:taskId/archive')
  async unarchive(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() taskId: string) {
    await this.tasks.setArchived(caller, taskId, false);
    return { ok: true };
  }

  @Member(TASK)
  @Put('tasks/:taskId/values/:propertyId')
  putValue(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() taskId: string, @Param('propertyId') propertyId: string, @Body() body: PutValueBody) {
    return this.tasks.putValue(caller, taskId, propertyId, body.command());
  }

  @Member(TASK)
  @Post('tasks/:taskId/move')
  @HttpCode(200)
  move(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() taskId: string, @Body() body: MoveTaskBody) {
    return this.tasks.move(caller, taskId, body.command());
  }

  @Member(TASK)
  @Post('tasks/:taskId/blockers')
  @HttpCode(200)
  async addBlocker(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() taskId: string, @Body() body: AddBlockerBody) {
    await this.links.addBlocker(caller, taskId, body.command());
    return { ok: true };
  }

  @Member(TASK)
  @Delete('tasks/:taskId/blockers/:blockerId')
  async removeBlocker(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() taskId: string, @Param('blockerId') blockerId: string) {
    await this.links.removeBlocker(caller, taskId, blockerId);
    return { ok: true };
  }

  @Member(TASK)
  @Put('tasks/:taskId/parent')
  async setParent(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() taskId: string, @Body() body: SetParentBody) {
    return { ok: true, left: await this.links.setParent(caller, taskId, body.command()) };
  }

  @Member(TASK)
  @Delete('tasks/:taskId/parent')
  async clearParent(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() taskId: string) {
    await this.links.clearParent(caller, taskId);
    return { ok: true };
  }
}
