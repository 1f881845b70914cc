import { Module } from '@nestjs/common';
import { TaskRepository } from '@board/tasks';
import { PgTaskRepository, PropertyListQuery } from '@board/persistence';
import { OptionsController } from './options.controller';
import { PropertiesController } from './properties.controller';
import { OptionsService } from './options.service';
import { PropertiesService } from './properties.service';
import { ShipService } from './ship.service';

/** Properties and their options: create, change, move, delete, counts, ships. */
@Module({
  controllers: [PropertiesController, OptionsController],
  providers: [PropertyListQuery, { provide: TaskRepository, useClass: PgTaskRepository }, PropertiesService, OptionsService, ShipService],
  exports: [PropertyListQuery],
})
export class PropertiesModule {}
