import { Module } from '@nestjs/common';
import { ChartQueries, ChartStore } from '@board/persistence';
import { ChartsController } from './charts.controller';
import { ChartsService } from './charts.service';

@Module({
  controllers: [ChartsController],
  providers: [ChartStore, ChartQueries, ChartsService],
})
export class ChartsModule {}
