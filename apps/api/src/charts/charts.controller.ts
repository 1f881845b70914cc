import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseInterceptors } from '@nestjs/common';
import { Human } from '../auth/access.decorator';
import { Auth, AuthContext } from '../auth/auth-context';
import { HeavyRead } from '../http/heavy-read.decorator';
import { ChartDataQuery, CreateChartBody, UpdateChartBody } from './charts.dto';
import { ChartsService } from './charts.service';
import { ChartOwnerCheck } from './chart-owner.check';
import { ReplicaRead } from '../http/replica-read.decorator';

/** A person's charts: human only, anybody else's chart is not found. */
@Controller('charts')
export class ChartsController {
  constructor(private readonly charts: ChartsService) {}

  @Human()
  @ReplicaRead()
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
  @UseInterceptors(ChartOwnerCheck)
  async update(@Auth() auth: AuthContext, @Param('chartId') chartId: string, @Body() body: UpdateChartBody) {
    return { chart: await this.charts.update(auth.caller.id, chartId, body) };
  }

  @Human()
  @Delete(':chartId')
  async remove(@Auth() auth: AuthContext, @Param('chartId') chartId: string) {
    await this.charts.remove(auth.caller.id, chartId);
    return { ok: true };
  }

  @Human()
  @HeavyRead('chart')
  @ReplicaRead()
  @Get(':chartId/data')
  @UseInterceptors(ChartOwnerCheck)
  async data(@Auth() auth: AuthContext, @Param('chartId') chartId: string, @Query() query: ChartDataQuery) {
    return this.charts.data(auth.caller.id, chartId, query);
  }
}
