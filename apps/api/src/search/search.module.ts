import { Module } from '@nestjs/common';
import { PgSearchQuery, SearchQuery } from '@board/persistence';
import { SearchController } from './search.controller';
import { SearchService } from './search.service';

@Module({
  controllers: [SearchController],
  providers: [{ provide: SearchQuery, useClass: PgSearchQuery }, SearchService],
})
export class SearchModule {}
