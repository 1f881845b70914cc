import { Module } from '@nestjs/common';
import { ImportRepository } from '@board/persistence';
import { ImportsController } from './imports.controller';
import { ImportsService } from './imports.service';

@Module({
  controllers: [ImportsController],
  providers: [ImportRepository, ImportsService],
})
export class ImportsModule {}
