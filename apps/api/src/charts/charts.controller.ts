import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Human } from '../auth/access.decorator';
import { Auth, AuthContext } from '../auth/auth-context';
import { bodyObject } from '../http/json-body';
import { CreateChartBody } from './charts.dto';
import { ChartsService } from './charts.service';

/** A person's charts: human only, anybody else's chart is not found. */
@Controller('charts')
export class ChartsController {
  constructor(private readonly charts: ChartsService) {}

  @Human()
  @Get()
  async list(@Auth() auth: AuthContext) {
    return { charts: await this.charts.list(auth.caller.id) };
  }

  @Human()
  @Post()
  @HttpCode(201)
  async create(@Auth() auth: AuthContext, @Body() body: CreateChartBody) {
    return { chart: await this.charts.create(auth.caller.id, body) };
  }

  @Human()
  @Patch(':chartId')
  async update(@Auth() auth: AuthContext, @Param('chartId') chartId: string, @Body() body: unknown) {
    return { chart: await this.charts.update(auth.caller.id, chartId, bodyObject(body)) };
  }

  @Human()
  @Delete(':chartId')
  async remove(@Auth() auth: AuthContext, @Param('chartId') chartId: string) {
    await this.charts.remove(auth.caller.id, chartId);
    return { ok: true };
  }

  @Human()
  @Get(':chartId/data')
  async data(@Auth() auth: AuthContext, @Param('chartId') chartId: string, @Query() query: unknown) {
    return this.charts.data(auth.caller.id, chartId, query);
  }
}
