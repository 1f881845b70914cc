import { Body, Controller, Delete, HttpCode, Patch, Post } from '@nestjs/common';
import { CHECKLIST_ITEM, Member, TASK } from '../auth/access.decorator';
import { ResourceId, Writer, WriterOf } from '../auth/auth-context';
import { AddChecklistItemBody, UpdateChecklistItemBody } from './checklist.dto';
import { ChecklistService } from './checklist.service';

/** Checklist items: any member, agents included. Items cannot be reordered. */
@Controller()
export class ChecklistController {
  constructor(private readonly checklist: ChecklistService) {}

  @Member(TASK)
  @Post('tasks/:taskId/checklist')
  @HttpCode(201)
  add(@ResourceId() taskId: string, @WriterOf() writer: Writer, @Body() body: AddChecklistItemBody) {
    return this.checklist.add(writer, taskId, body);
  }

  @Member(CHECKLIST_ITEM)
  @Patch('checklist/:itemId')
  update(@ResourceId() itemId: string, @WriterOf() writer: Writer, @Body() body: UpdateChecklistItemBody) {
    return this.checklist.update(writer, itemId, body);
  }

  @Member(CHECKLIST_ITEM)
  @Delete('checklist/:itemId')
  async remove(@ResourceId() itemId: string, @WriterOf() writer: Writer) {
    await this.checklist.remove(writer, itemId);
    return { ok: true };
  }
}
