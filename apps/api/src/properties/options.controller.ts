import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { Admin, Member, OPTION } from '../auth/access.decorator';
import { ResourceId, Writer, WriterOf } from '../auth/auth-context';
import { OptionsService } from './options.service';
import { OptionBody, ShipBody } from './properties.dto';
import { ShipService } from './ship.service';

/** An option of a select, multi-select or iteration: change, delete, count, ship. */
@Controller('options/:optionId')
export class OptionsController {
  constructor(
    private readonly options: OptionsService,
    private readonly ships: ShipService,
  ) {}

  @Member(OPTION)
  @Patch()
  async update(@WriterOf() writer: Writer, @ResourceId() id: string, @Body() body: OptionBody) {
    return { option: await this.options.update(writer, id, body) };
  }

  @Admin('delete options', OPTION)
  @Delete()
  async remove(@WriterOf() writer: Writer, @ResourceId() id: string) {
    await this.options.remove(writer, id);
    return { ok: true };
  }

  @Member(OPTION)
  @Get('count')
  async count(@WriterOf() writer: Writer, @ResourceId() id: string) {
    return { tasks: await this.options.countTasks(writer.projectId, id) };
  }

  /** Ships a release or a sprint (any member, agents too): `{ rest, strays? }`. */
  @Member(OPTION)
  @Post('ship')
  @HttpCode(200)
  async ship(@WriterOf() writer: Writer, @ResourceId() id: string, @Body() body: ShipBody) {
    return this.ships.ship(writer, id, body);
  }
}
