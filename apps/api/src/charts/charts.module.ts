import { Module } from '@nestjs/common';
import { ChartRepository } from '@board/charts';
import { ChartQuery, PgChartQuery, PgChartRepository } from '@board/persistence';
import { ChartsController } from './charts.controller';
import { ChartsService } from './charts.service';

@Module({
  controllers: [ChartsController],
  providers: [{ provide: ChartRepository, useClass: PgChartRepository }, { provide: ChartQuery, useClass: PgChartQuery }, ChartsService],
})
export class ChartsModule {}
