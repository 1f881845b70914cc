import { Module } from '@nestjs/common';
import { PropertyListQuery, TaskRepository } from '@board/persistence';
import { OptionsController } from './options.controller';
import { PropertiesController } from './properties.controller';
import { OptionsService } from './options.service';
import { PropertiesService } from './properties.service';
import { ShipService } from './ship.service';

/** Properties and their options: create, change, move, delete, counts, ships. */
@Module({
  controllers: [PropertiesController, OptionsController],
  providers: [PropertyListQuery, TaskRepository, PropertiesService, OptionsService, ShipService],
  exports: [PropertyListQuery],
})
export class PropertiesModule {}
