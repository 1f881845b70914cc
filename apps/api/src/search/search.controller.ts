import { Controller, Get, Query } from '@nestjs/common';
import { SignedIn } from '../auth/access.decorator';
import { Auth, AuthContext } from '../auth/auth-context';
import { HeavyRead } from '../http/heavy-read.decorator';
import { TaskSearchQuery } from './search.dto';
import { SearchService } from './search.service';
import { ReplicaRead } from '../http/replica-read.decorator';

/** Search across the caller's projects: a person's memberships, or an agent token's one project. */
@Controller('search')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  /** A heavy read (decisions.md › Fair use): at most 2 at once per person or agent, the long statement limit. */
  @SignedIn()
  @HeavyRead('search')
  @ReplicaRead()
  @Get()
  async find(@Auth() auth: AuthContext, @Query() query: TaskSearchQuery) {
    return this.search.search(auth, query);
  }
}
