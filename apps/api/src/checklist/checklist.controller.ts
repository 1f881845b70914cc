import { Body, Controller, Delete, HttpCode, Patch, Post } from '@nestjs/common';
import { CHECKLIST_ITEM, Member, TASK } from '../auth/access.decorator';
import { ResourceId, ProjectCaller, ProjectCallerOf } from '../auth/auth-context';
import { AddChecklistItemBody, UpdateChecklistItemBody } from './checklist.dto';
import { ChecklistService } from './checklist.service';

/** Checklist items: any member, agents included. Items cannot be reordered. */
@Controller()
export class ChecklistController {
  constructor(private readonly checklist: ChecklistService) {}

  @Member(TASK)
  @Post('tasks/:taskId/checklist')
  @HttpCode(201)
  add(@ResourceId() taskId: string, @ProjectCallerOf() caller: ProjectCaller, @Body() body: AddChecklistItemBody) {
    return this.checklist.add(caller, taskId, body);
  }

  @Member(CHECKLIST_ITEM)
  @Patch('checklist/:itemId')
  update(@ResourceId() itemId: string, @ProjectCallerOf() caller: ProjectCaller, @Body() body: UpdateChecklistItemBody) {
    return this.checklist.update(caller, itemId, body);
  }

  @Member(CHECKLIST_ITEM)
  @Delete('checklist/:itemId')
  async remove(@ResourceId() itemId: string, @ProjectCallerOf() caller: ProjectCaller) {
    await this.checklist.remove(caller, itemId);
    return { ok: true };
  }
}
