import { Module } from '@nestjs/common';
import { PropertyListQuery, PropertyStore } from '@board/persistence';
import { OptionsController, PropertiesController } from './properties.controller';
import { OptionsService } from './options.service';
import { PropertiesService } from './properties.service';

/** Properties and their options: create, change, move, delete, counts. */
@Module({
  controllers: [PropertiesController, OptionsController],
  providers: [PropertyStore, PropertyListQuery, PropertiesService, OptionsService],
  exports: [PropertyStore, PropertyListQuery],
})
export class PropertiesModule {}
