/** Which field of a hit holds the first match, in the order the answer ranks them. */
export type SearchWhere = 'key' | 'title' | 'description' | 'comment';

export interface SearchHit {
  task: { id: string; key: string; title: string; projectId: string; archived: boolean };
  where: SearchWhere;
  snippet: string;
}

export interface SearchResult {
  hits: SearchHit[];
  total: number;
}

/** Search over tasks (extensions.md § 4): tasks whose key, title, description or comments hold the query's words. */
export abstract class SearchQuery {
  /** The projects a person searches: those they are a member of, or only `projectId` (none when they are not in it). */
  abstract projectsOf(userId: string, projectId: string | null): Promise<string[]>;

  /** A page of at most `limit` hits in `projectIds`, best first, and how many there are. */
  abstract search(projectIds: readonly string[], q: string, limit: number): Promise<SearchResult>;
}
