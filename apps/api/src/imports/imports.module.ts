import { Module } from '@nestjs/common';
import { ImportRepository } from '@board/imports';
import { PgImportRepository } from '@board/persistence';
import { ImportsController } from './imports.controller';
import { ImportsService } from './imports.service';

@Module({
  controllers: [ImportsController],
  providers: [{ provide: ImportRepository, useClass: PgImportRepository }, ImportsService],
})
export class ImportsModule {}
