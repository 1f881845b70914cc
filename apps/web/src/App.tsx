import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, get, onSignedOut, post } from './api/client';
import type { User } from './api/types';
import { AuthScreen, ResetScreen } from './auth/AuthScreen';
import { ProjectList } from './projects/ProjectList';
import { ProjectPage } from './board/ProjectPage';
import { AccountPage } from './auth/AccountPage';
import { ListsPage } from './extra/ListsPage';
import { ChartsPage } from './extra/ChartsPage';
import { Avatar } from './ui/Avatar';
import { SearchBox } from './search/SearchPalette';
import { NotificationBell } from './notifications/NotificationBell';
import { linkProps, navigate, useLocation } from './router';

export function App() {
  const { path } = useLocation();
  const qc = useQueryClient();
  // A session ended elsewhere (signed out, password changed, other sessions ended): back to sign-in.
  useEffect(() => onSignedOut(() => qc.setQueryData(['me'], null)), [qc]);
  const me = useQuery({
    queryKey: ['me'],
    queryFn: async () => {
      try {
        return (await get<{ user: User }>('/auth/me')).user;
      } catch (e) {
        if (e instanceof ApiError && e.status === 401) return null;
        throw e;
      }
    },
    staleTime: Infinity,
  });
  if (path === '/reset') return <ResetScreen />;
  if (me.isPending) return <p className="loading" role="status">Loading…</p>;
  if (me.isError) return <p className="error" role="alert">{me.error.message}</p>;
  if (!me.data) return <AuthScreen />;
  return <SignedIn user={me.data} path={path} />;
}

function SignedIn({ user, path }: { user: User; path: string }) {
  const qc = useQueryClient();
  const project = /^\/p\/([0-9a-fA-F-]{36})(\/(\w+))?/.exec(path);
  const list = /^\/lists(?:\/([0-9a-fA-F-]{36}))?/.exec(path);
  const signOut = async () => {
    await post('/auth/logout');
    navigate('/', true);
    qc.setQueryData(['me'], null);
    qc.removeQueries({ predicate: (q) => q.queryKey[0] !== 'me' });
  };
  return (
    <div className="app">
      <header className="topbar">
        <nav aria-label="Main">
          <a className="brand" {...linkProps('/')}>Task board</a>
          <a {...linkProps('/lists')} aria-current={path.startsWith('/lists') ? 'page' : undefined}>Lists</a>
          <a {...linkProps('/charts')} aria-current={path.startsWith('/charts') ? 'page' : undefined}>Charts</a>
        </nav>
        <SearchBox />
        <div className="topbar-me">
          <NotificationBell />
          <a {...linkProps('/account')} className="me-link" aria-label={`Your account: ${user.name}`}>
            <Avatar person={user} />
          </a>
          <button type="button" className="ghost" onClick={signOut}>Sign out</button>
        </div>
      </header>
      <main id="main">
        {project ? (
          <ProjectPage key={project[1]} projectId={project[1].toLowerCase()} section={project[3] ?? 'board'} me={user} />
        ) : list ? (
          <ListsPage listId={list[1] ?? null} />
        ) : path.startsWith('/charts') ? (
          <ChartsPage />
        ) : path.startsWith('/account') ? (
          <AccountPage user={user} />
        ) : (
          <ProjectList />
        )}
      </main>
    </div>
  );
}
