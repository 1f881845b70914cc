import { Body, Controller, Delete, Param, Put, UseInterceptors } from '@nestjs/common';
import { Human } from '../auth/access.decorator';
import { Auth, AuthContext } from '../auth/auth-context';
import { ListIdsCheck } from './list-ids.check';
import { PutListTaskBody } from './lists.dto';
import { ListsService } from './lists.service';

/** Putting tasks in a person's list, moving them there and taking them out. */
@Controller('lists/:listId/tasks')
export class ListTasksController {
  constructor(private readonly lists: ListsService) {}

  @Human()
  @Put(':taskId')
  @UseInterceptors(ListIdsCheck)
  async put(@Auth() auth: AuthContext, @Param('listId') listId: string, @Param('taskId') taskId: string, @Body() body: PutListTaskBody) {
    await this.lists.putTask(auth.caller.id, listId, taskId, body);
    return { ok: true };
  }

  @Human()
  @Delete(':taskId')
  async remove(@Auth() auth: AuthContext, @Param('listId') listId: string, @Param('taskId') taskId: string) {
    await this.lists.removeTask(auth.caller.id, listId, taskId);
    return { ok: true };
  }
}
