import { Module } from '@nestjs/common';
import { SearchQuery } from '@board/persistence';
import { SearchController } from './search.controller';
import { SearchService } from './search.service';

@Module({
  controllers: [SearchController],
  providers: [SearchQuery, SearchService],
})
export class SearchModule {}
