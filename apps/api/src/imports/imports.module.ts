import { Module } from '@nestjs/common';
import { BoardExportRepository, ImportRepository } from '@board/imports';
import { PgBoardExportRepository, PgImportRepository } from '@board/persistence';
import { BoardExportImportService } from './board-export-import.service';
import { ImportsController } from './imports.controller';
import { ImportsService } from './imports.service';

@Module({
  controllers: [ImportsController],
  providers: [
    { provide: ImportRepository, useClass: PgImportRepository },
    { provide: BoardExportRepository, useClass: PgBoardExportRepository },
    ImportsService,
    BoardExportImportService,
  ],
})
export class ImportsModule {}
