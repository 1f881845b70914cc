import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { Admin, Member, PROPERTY } from '../auth/access.decorator';
import { ResourceId, ProjectCaller, ProjectCallerOf } from '../auth/auth-context';
import { OptionsService } from './options.service';
import { CreatePropertyBody, OptionBody, UpdatePropertyBody } from './properties.dto';
import { PropertiesService } from './properties.service';

@Controller()
export class PropertiesController {
  constructor(
    private readonly properties: PropertiesService,
    private readonly options: OptionsService,
  ) {}

  @Member()
  @Post('projects/:projectId/properties')
  @HttpCode(201)
  async create(@ProjectCallerOf() caller: ProjectCaller, @Body() body: CreatePropertyBody) {
    return { property: await this.properties.create(caller, body) };
  }

  @Member(PROPERTY)
  @Patch('properties/:propertyId')
  async update(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() id: string, @Body() body: UpdatePropertyBody) {
    await this.properties.update(caller, id, body);
    return { ok: true };
  }

  @Admin('delete properties', PROPERTY)
  @Delete('properties/:propertyId')
  async remove(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() id: string) {
    await this.properties.remove(caller, id);
    return { ok: true };
  }

  @Member(PROPERTY)
  @Get('properties/:propertyId/count')
  async count(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() id: string) {
    return { values: await this.properties.countValues(caller.projectId, id) };
  }

  @Member(PROPERTY)
  @Post('properties/:propertyId/options')
  @HttpCode(201)
  async createOption(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() id: string, @Body() body: OptionBody) {
    return { option: await this.options.create(caller, id, body) };
  }
}
