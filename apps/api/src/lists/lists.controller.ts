import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseInterceptors } from '@nestjs/common';
import { Human } from '../auth/access.decorator';
import { Auth, AuthContext } from '../auth/auth-context';
import { ListIdsCheck } from './list-ids.check';
import { CreateListBody, UpdateListBody } from './lists.dto';
import { ListsService } from './lists.service';
import { ReplicaRead } from '../http/replica-read.decorator';

/** A person's lists: human only, anybody else's list is not found. */
@Controller('lists')
export class ListsController {
  constructor(private readonly lists: ListsService) {}

  @Human()
  @ReplicaRead()
  @Get()
  async list(@Auth() auth: AuthContext) {
    return { lists: await this.lists.list(auth.caller.id) };
  }

  @Human()
  @Post()
  @HttpCode(201)
  async create(@Auth() auth: AuthContext, @Body() body: CreateListBody) {
    return { list: await this.lists.create(auth.caller.id, body) };
  }

  @Human()
  @ReplicaRead()
  @Get(':listId')
  async read(@Auth() auth: AuthContext, @Param('listId') listId: string) {
    return this.lists.read(auth.caller.id, listId);
  }

  @Human()
  @Patch(':listId')
  @UseInterceptors(ListIdsCheck)
  async update(@Auth() auth: AuthContext, @Param('listId') listId: string, @Body() body: UpdateListBody) {
    return { list: await this.lists.update(auth.caller.id, listId, body) };
  }

  @Human()
  @Delete(':listId')
  async remove(@Auth() auth: AuthContext, @Param('listId') listId: string) {
    await this.lists.remove(auth.caller.id, listId);
    return { ok: true };
  }
}
