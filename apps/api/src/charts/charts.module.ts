import { Module } from '@nestjs/common';
import { ChartQuery, ChartRepository } from '@board/persistence';
import { ChartsController } from './charts.controller';
import { ChartsService } from './charts.service';

@Module({
  controllers: [ChartsController],
  providers: [ChartRepository, ChartQuery, ChartsService],
})
export class ChartsModule {}
