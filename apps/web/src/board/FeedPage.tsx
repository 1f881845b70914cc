import { useInfiniteQuery } from '@tanstack/react-query';
import { get } from '../api/client';
import type { Board, FeedEntry } from '../api/types';
import { describeActivity } from '../task/Activity';
import { Avatar } from '../ui/Avatar';
import { ErrorLine } from '../ui/Field';
import { setQuery } from '../router';

const PAGE = 50;
type Cursor = { after: string; afterId: string } | null;
interface FeedPageAnswer { activity: FeedEntry[]; next: Cursor }

/** The project's activity feed, newest first, read a page at a time (to older lines) by the answer's `next`. */
export function FeedPage({ board }: { board: Board }) {
  const pid = board.project.id;
  const feed = useInfiniteQuery({
    queryKey: ['project-extra', pid, 'activity'],
    initialPageParam: null as Cursor,
    queryFn: ({ pageParam }) =>
      get<FeedPageAnswer>(`/projects/${pid}/activity?order=newest&limit=${PAGE}${pageParam ? `&after=${encodeURIComponent(pageParam.after)}&afterId=${pageParam.afterId}` : ''}`),
    getNextPageParam: (last) => last.next,
  });
  const lines = feed.data?.pages.flatMap((p) => p.activity) ?? [];
  return (
    <div className="page feed-page">
      <h2 id="feed-h">Activity</h2>
      <ErrorLine error={feed.error?.message ?? null} />
      {feed.isPending && <p role="status">Loading the activity…</p>}
      <ol className="feed" aria-labelledby="feed-h">
        {lines.map((a) => {
          const taskId = a.taskKey ? a.taskId : null;
          return (
            <li key={a.id}>
              <time className="muted" dateTime={a.createdAt}>{new Date(a.createdAt).toLocaleString()}</time>{' '}
              <Avatar person={a.actor} size={16} /> <strong>{a.actor?.name ?? 'Someone'}</strong> {describeActivity(a)}
              {taskId ? (
                <> · <button type="button" className="link" onClick={() => setQuery({ task: taskId })}>{a.taskKey}</button></>
              ) : null}
            </li>
          );
        })}
      </ol>
      {!feed.isPending && lines.length === 0 && <p className="muted">Nothing has happened yet.</p>}
      {feed.hasNextPage && (
        <button type="button" onClick={() => void feed.fetchNextPage()} disabled={feed.isFetchingNextPage}>
          {feed.isFetchingNextPage ? 'Loading…' : 'Show older activity'}
        </button>
      )}
      <p className="muted" role="status">{lines.length} line{lines.length === 1 ? '' : 's'} shown{feed.hasNextPage ? ', more to read' : ''}</p>
    </div>
  );
}
