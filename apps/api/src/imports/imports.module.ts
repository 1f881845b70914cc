import { Module } from '@nestjs/common';
import { ImportStore } from '@board/persistence';
import { ImportsController } from './imports.controller';
import { ImportsService } from './imports.service';

@Module({
  controllers: [ImportsController],
  providers: [ImportStore, ImportsService],
})
export class ImportsModule {}
