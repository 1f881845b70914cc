import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { HumanMember, Member, RESTORABLE_TASK, TASK } from '../auth/access.decorator';
import { ResourceId, Writer, WriterOf } from '../auth/auth-context';
import { BulkService } from './bulk.service';
import { LinksService } from './links.service';
import { TasksService } from './tasks.service';
import { AddBlockerBody, BulkArchiveBody, BulkValuesBody, CreateTaskBody, EditTaskBody, MoveTaskBody, PutValueBody, SearchQuery, SetParentBody } from './tasks.dto';

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
  async create(@WriterOf() writer: Writer, @Body() body: CreateTaskBody) {
    return { task: await this.tasks.create(writer, body) };
  }

  @Member()
  @Post('projects/:projectId/tasks/values')
  @HttpCode(200)
  bulkValues(@WriterOf() writer: Writer, @Body() body: BulkValuesBody) {
    return this.bulk.values(writer, body);
  }

  @HumanMember()
  @Post('projects/:projectId/archive')
  @HttpCode(200)
  async bulkArchive(@WriterOf() writer: Writer, @Body() body: BulkArchiveBody) {
    return { archived: await this.bulk.archive(writer, body) };
  }

  @Member()
  @Get('projects/:projectId/deleted')
  deleted(@WriterOf() writer: Writer) {
    return this.tasks.deleted(writer);
  }

  @Member()
  @Get('projects/:projectId/search')
  search(@WriterOf() writer: Writer, @Query() query: SearchQuery) {
    return this.tasks.search(writer, query.q);
  }

  @Member(TASK)
  @Get('tasks/:taskId')
  async read(@WriterOf() writer: Writer, @ResourceId() taskId: string) {
    return { task: await this.tasks.read(writer, taskId) };
  }

  @Member(TASK)
  @Patch('tasks/:taskId')
  async edit(@WriterOf() writer: Writer, @ResourceId() taskId: string, @Body() body: EditTaskBody) {
    await this.tasks.edit(writer, taskId, body);
    return { ok: true };
  }

  @Member(TASK)
  @Delete('tasks/:taskId')
  async remove(@WriterOf() writer: Writer, @ResourceId() taskId: string) {
    return { ok: true, goesAt: await this.tasks.remove(writer, taskId) };
  }

  @Member(RESTORABLE_TASK)
  @Post('tasks/:taskId/restore')
  @HttpCode(200)
  async restore(@WriterOf() writer: Writer, @ResourceId() taskId: string) {
    await this.tasks.restore(writer, taskId);
    return { ok: true };
  }

  @Member(TASK)
  @Post('tasks/:taskId/archive')
  @HttpCode(200)
  async archive(@WriterOf() writer: Writer, @ResourceId() taskId: string) {
    await this.tasks.setArchived(writer, taskId, true);
    return { ok: true };
  }

  @Member(TASK)
  @Delete('tasks/:taskId/archive')
  async unarchive(@WriterOf() writer: Writer, @ResourceId() taskId: string) {
    await this.tasks.setArchived(writer, taskId, false);
    return { ok: true };
  }

  @Member(TASK)
  @Put('tasks/:taskId/values/:propertyId')
  putValue(@WriterOf() writer: Writer, @ResourceId() taskId: string, @Param('propertyId') propertyId: string, @Body() body: PutValueBody) {
    return this.tasks.putValue(writer, taskId, propertyId, body);
  }

  @Member(TASK)
  @Post('tasks/:taskId/move')
  @HttpCode(200)
  move(@WriterOf() writer: Writer, @ResourceId() taskId: string, @Body() body: MoveTaskBody) {
    return this.tasks.move(writer, taskId, body);
  }

  @Member(TASK)
  @Post('tasks/:taskId/blockers')
  @HttpCode(200)
  async addBlocker(@WriterOf() writer: Writer, @ResourceId() taskId: string, @Body() body: AddBlockerBody) {
    await this.links.addBlocker(writer, taskId, body);
    return { ok: true };
  }

  @Member(TASK)
  @Delete('tasks/:taskId/blockers/:blockerId')
  async removeBlocker(@WriterOf() writer: Writer, @ResourceId() taskId: string, @Param('blockerId') blockerId: string) {
    await this.links.removeBlocker(writer, taskId, blockerId);
    return { ok: true };
  }

  @Member(TASK)
  @Put('tasks/:taskId/parent')
  async setParent(@WriterOf() writer: Writer, @ResourceId() taskId: string, @Body() body: SetParentBody) {
    return { ok: true, left: await this.links.setParent(writer, taskId, body) };
  }

  @Member(TASK)
  @Delete('tasks/:taskId/parent')
  async clearParent(@WriterOf() writer: Writer, @ResourceId() taskId: string) {
    await this.links.clearParent(writer, taskId);
    return { ok: true };
  }
}
