import { Injectable } from '@nestjs/common';
import { fail } from '@board/kernel';
import { SearchQuery, SearchResult } from '@board/persistence';
import type { AuthContext } from '../auth/auth-context';
import { SEARCH_LIMIT_DEFAULT, TaskSearchQuery } from './search.dto';

/** Search over the tasks a credential may see (extensions.md § 4). */
@Injectable()
export class SearchService {
  constructor(private readonly queries: SearchQuery) {}

  async search(auth: AuthContext, query: TaskSearchQuery): Promise<SearchResult> {
    return this.queries.search(await this.projectsOf(auth, query.projectId ?? null), query.q ?? '', query.limit ?? SEARCH_LIMIT_DEFAULT);
  }

  /**
   * An agent token searches its own project only; naming another is refused as on every project
   * route. A person searches the projects they are a member of; naming one they are not in (or
   * one that is not there) is not found, so existence never leaks.
   */
  private async projectsOf(auth: AuthContext, projectId: string | null): Promise<string[]> {
    if (auth.via === 'token') {
      if (projectId && projectId !== auth.tokenProjectId) fail('auth.token_other_project');
      return [auth.tokenProjectId];
    }
    const projects = await this.queries.projectsOf(auth.caller.id, projectId);
    if (projectId && projects.length === 0) fail('project.not_found');
    return projects;
  }
}
