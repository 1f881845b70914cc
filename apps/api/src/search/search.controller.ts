import { Controller, Get, Query } from '@nestjs/common';
import { SignedIn } from '../auth/access.decorator';
import { Auth, AuthContext } from '../auth/auth-context';
import { TaskSearchQuery } from './search.dto';
import { SearchService } from './search.service';

/** Search across the caller's projects: a person's memberships, or an agent token's one project. */
@Controller('search')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  // TODO(heavy read): search is a heavy read in Fair use terms (decisions.md): at most 2 at once
  // per person (per agent for tokens), a third 429, and the 15-second statement limit. Wire it to
  // the heavy-read limiter when that lands.
  @SignedIn()
  @Get()
  async find(@Auth() auth: AuthContext, @Query() query: TaskSearchQuery) {
    return this.search.search(auth, query);
  }
}
