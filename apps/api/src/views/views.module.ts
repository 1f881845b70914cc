import { Module } from '@nestjs/common';
import { PgViewCsvQuery, PgViewTaskPageQuery, ViewCsvQuery, ViewTaskPageQuery } from '@board/persistence';
import { TasksModule } from '../tasks/tasks.module';
import { ViewExportController } from './view-export.controller';
import { ViewExportService } from './view-export.service';
import { ViewsController } from './views.controller';
import { ViewsService } from './views.service';

@Module({
  imports: [TasksModule],
  controllers: [ViewsController, ViewExportController],
  providers: [{ provide: ViewTaskPageQuery, useClass: PgViewTaskPageQuery }, { provide: ViewCsvQuery, useClass: PgViewCsvQuery }, ViewsService, ViewExportService],
})
export class ViewsModule {}
