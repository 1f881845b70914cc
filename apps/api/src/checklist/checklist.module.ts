import { Module } from '@nestjs/common';
import { PgChecklistRepository } from '@board/persistence';
import { ChecklistRepository } from '@board/tasks';
import { ChecklistController } from './checklist.controller';
import { ChecklistService } from './checklist.service';

@Module({
  controllers: [ChecklistController],
  providers: [ChecklistService, { provide: ChecklistRepository, useClass: PgChecklistRepository }],
})
export class ChecklistModule {}
