import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { Admin, Member, PROPERTY } from '../auth/access.decorator';
import { ResourceId, Writer, WriterOf } from '../auth/auth-context';
import { bodyObject } from '../http/json-body';
import { OptionsService } from './options.service';
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
  async create(@WriterOf() writer: Writer, @Body() body: unknown) {
    return { property: await this.properties.create(writer, bodyObject(body)) };
  }

  @Member(PROPERTY)
  @Patch('properties/:propertyId')
  async update(@WriterOf() writer: Writer, @ResourceId() id: string, @Body() body: unknown) {
    await this.properties.update(writer, id, bodyObject(body));
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
  async createOption(@WriterOf() writer: Writer, @ResourceId() id: string, @Body() body: unknown) {
    return { option: await this.options.create(writer, id, bodyObject(body)) };
  }
}
