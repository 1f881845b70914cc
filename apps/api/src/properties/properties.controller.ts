import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { Admin, Member, PROPERTY } from '../auth/access.decorator';
import { ResourceId, Writer, WriterOf } from '../auth/auth-context';
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
  async create(@WriterOf() writer: Writer, @Body() body: CreatePropertyBody) {
    return { property: await this.properties.create(writer, body) };
  }

  @Member(PROPERTY)
  @Patch('properties/:propertyId')
  async update(@WriterOf() writer: Writer, @ResourceId() id: string, @Body() body: UpdatePropertyBody) {
    await this.properties.update(writer, id, body);
    return { ok: true };
  }

  @Admin('delete properties', PROPERTY)
  @Delete('properties/:propertyId')
  async remove(@WriterOf() writer: Writer, @ResourceId() id: string) {
    await this.properties.remove(writer, id);
    return { ok: true };
  }

  @Member(PROPERTY)
  @Get('properties/:propertyId/count')
  async count(@WriterOf() writer: Writer, @ResourceId() id: string) {
    return { values: await this.properties.countValues(writer.projectId, id) };
  }

  @Member(PROPERTY)
  @Post('properties/:propertyId/options')
  @HttpCode(201)
  async createOption(@WriterOf() writer: Writer, @ResourceId() id: string, @Body() body: OptionBody) {
    return { option: await this.options.create(writer, id, body) };
  }
}
