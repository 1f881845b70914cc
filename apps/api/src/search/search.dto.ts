import { fail } from '@board/kernel';
import { Keeps, ReadIdField } from '../http/dto/field-rules';

/** The most hits one page of search answers, and how many it answers without `limit` (extensions.md § 4). */
export const SEARCH_LIMIT_MAX = 50;
export const SEARCH_LIMIT_DEFAULT = 20;

/** GET /search?q=&projectId=&limit= — `q` is never refused: anything but text holds no words. */
export class TaskSearchQuery {
  @Keeps('search-q', (value) => (typeof value === 'string' ? value : ''), { doc: { schema: { type: 'string', description: 'The words to find: each must start a word of the key, title, description or comments, in any case, with or without accents.' } } })
  q?: string;

  @ReadIdField('project')
  projectId?: string | null;

  @Keeps(
    'search-limit',
    (value) => {
      if (value === undefined) return undefined;
      const size = Number(value);
      return /^\d+$/.test(String(value)) && size >= 1 && size <= SEARCH_LIMIT_MAX ? size : fail('search.limit_invalid');
    }, { doc: { schema: { type: 'string', pattern: '^[0-9]+$', description: `1 to ${SEARCH_LIMIT_MAX} hits (default ${SEARCH_LIMIT_DEFAULT}).` } } })
  limit?: number;
}
