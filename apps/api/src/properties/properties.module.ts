import { Module } from '@nestjs/common';
import { TaskRepository } from '@board/tasks';
import { PgPropertyListQuery, PgTaskRepository, PropertyListQuery } from '@board/persistence';
import { OptionsController } from './options.controller';
import { PropertiesController } from './properties.controller';
import { OptionsService } from './options.service';
import { PropertiesService } from './properties.service';
import { ShippingModule } from '../shipping/shipping.module';

/** Properties and their options: create, change, move, delete, counts; the ship route (ShippingModule does the shipping). */
@Module({
  imports: [ShippingModule],
  controllers: [PropertiesController, OptionsController],
  providers: [{ provide: PropertyListQuery, useClass: PgPropertyListQuery }, { provide: TaskRepository, useClass: PgTaskRepository }, PropertiesService, OptionsService],
  exports: [PropertyListQuery],
})
export class PropertiesModule {}
