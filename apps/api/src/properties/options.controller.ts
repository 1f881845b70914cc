import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { Admin, Member, OPTION } from '../auth/access.decorator';
import { ResourceId, ProjectCaller, ProjectCallerOf } from '../auth/auth-context';
import { OptionsService } from './options.service';
import { OptionBody, ShipBody } from './properties.dto';
import { ShippingService } from '../shipping/shipping.service';

/** An option of a select, multi-select or iteration: change, delete, count, ship. */
@Controller('options/:optionId')
export class OptionsController {
  constructor(
    private readonly options: OptionsService,
    private readonly ships: ShippingService,
  ) {}

  @Member(OPTION)
  @Patch()
  async update(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() id: string, @Body() body: OptionBody) {
    return { option: await this.options.update(caller, id, body) };
  }

  @Admin('delete options', OPTION)
  @Delete()
  async remove(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() id: string) {
    await this.options.remove(caller, id);
    return { ok: true };
  }

  @Member(OPTION)
  @Get('count')
  async count(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() id: string) {
    return { tasks: await this.options.countTasks(caller.projectId, id) };
  }

  /** Ships a release or a sprint (any member, agents too): `{ rest, strays? }`. */
  @Member(OPTION)
  @Post('ship')
  @HttpCode(200)
  async ship(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() id: string, @Body() body: ShipBody) {
    return this.ships.ship(caller, id, body);
  }
}
