import { Module } from '@nestjs/common';
import { TaskRepository } from '@board/tasks';
import { PgTaskRepository } from '@board/persistence';
import { ShippingService } from './shipping.service';

/**
 * Shipping a release or a sprint. Its route stays on OptionsController (`/options/:optionId/ship`):
 * moving the handler would change its operationId in the API document.
 */
@Module({
  providers: [{ provide: TaskRepository, useClass: PgTaskRepository }, ShippingService],
  exports: [ShippingService],
})
export class ShippingModule {}
