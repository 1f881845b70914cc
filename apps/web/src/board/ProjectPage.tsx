import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { post } from '../api/client';
import type { Board, User, View, ViewKind } from '../api/types';
import { linkProps, setQuery, useLocation } from '../router';
import { ErrorLine, useAction } from '../ui/Field';
import { useBoard } from './useBoard';
import { useProjectStream } from './live';
import { buildColumns, groupableProperties, visibleTasks } from './model';
import { columnValues, createTask, firstRealColumn } from './create-task';
import { BoardView } from './BoardView';
import { ListView } from './ListView';
import { RoadmapView } from './RoadmapView';
import { FilterBar } from './FilterBar';
import { TaskPanel } from '../task/TaskPanel';
import { SettingsPage } from '../settings/SettingsPage';
import { TrashPage } from './TrashPage';
import { ChangelogPage } from '../extra/ChangelogPage';
import { FeedPage } from './FeedPage';
import { UsagePage } from '../extra/UsagePage';
import { Avatar } from '../ui/Avatar';

export function ProjectPage({ projectId, section, me }: { projectId: string; section: string; me: User }) {
  const board = useBoard(projectId);
  const { presence, connected } = useProjectStream(projectId);
  const { query } = useLocation();
  const taskId = query.get('task');

  if (board.isPending) return <p className="loading" role="status">Loading the board…</p>;
  if (board.isError) return <p className="error" role="alert">{board.error.message}</p>;
  const data = board.data;
  const base = `/p/${projectId}`;
  const others = [...new Map([...presence.values()].map((p) => [p.userId, p])).values()];
  return (
    <div className="project">
      <header className="project-head">
        <h1><span className="project-key">{data.project.key}</span> {data.project.name}</h1>
        <nav aria-label="Project" className="tabs">
          <a {...linkProps(base)} aria-current={section === 'board' ? 'page' : undefined}>Board</a>
          <a {...linkProps(`${base}/trash`)} aria-current={section === 'trash' ? 'page' : undefined}>Archive and bin</a>
          <a {...linkProps(`${base}/activity`)} aria-current={section === 'activity' ? 'page' : undefined}>Activity</a>
          <a {...linkProps(`${base}/changelog`)} aria-current={section === 'changelog' ? 'page' : undefined}>Changelog</a>
          <a {...linkProps(`${base}/usage`)} aria-current={section === 'usage' ? 'page' : undefined}>Usage</a>
          <a {...linkProps(`${base}/settings`)} aria-current={section === 'settings' ? 'page' : undefined}>Settings</a>
        </nav>
        <div className="live" aria-live="polite">
          <span className={connected ? 'dot on' : 'dot'} aria-hidden="true" />
          <span className="sr-only">{connected ? 'Live updates on' : 'Reconnecting'}</span>
          {others.map((p) => {
            const m = data.members.find((x) => x.id === p.userId);
            return m ? <Avatar key={p.userId} person={m} size={20} title={`${m.name} is here`} /> : null;
          })}
        </div>
      </header>
      {section === 'settings' ? (
        <SettingsPage board={data} me={me} />
      ) : section === 'trash' ? (
        <TrashPage board={data} />
      ) : section === 'activity' ? (
        <FeedPage board={data} />
      ) : section === 'changelog' ? (
        <ChangelogPage board={data} />
      ) : section === 'usage' ? (
        <UsagePage board={data} />
      ) : (
        <Views board={data} me={me} presence={presence} />
      )}
      {taskId && <TaskPanel key={taskId} taskId={taskId} board={data} me={me} presence={presence} onClose={() => setQuery({ task: null })} />}
    </div>
  );
}

/**
 * What a view tab adds after the name: its kind, in brackets ("All (list)"), unless the name
 * already says it ("Board", "My list").
 */
export function tabKind(v: Pick<View, 'name' | 'kind'>): string | null {
  return v.name.toLowerCase().split(/\s+/).includes(v.kind) ? null : v.kind;
}

function Views({ board, me, presence }: { board: Board; me: User; presence: ReturnType<typeof useProjectStream>['presence'] }) {
  const { query } = useLocation();
  const views = board.views;
  const view = views.find((v) => v.id === query.get('view')) ?? views.find((v) => v.isDefault) ?? views[0];
  const tasks = useMemo(() => visibleTasks(board, view, me.id), [board, view, me.id]);
  const [adding, setAdding] = useState(false);
  return (
    <>
      <div className="view-bar">
        <div role="tablist" aria-label="Views" className="view-tabs">
          {views.map((v) => (
            <button
              key={v.id}
              role="tab"
              type="button"
              aria-selected={v.id === view?.id}
              onClick={() => setQuery({ view: v.id })}
            >
              {v.name}{tabKind(v) ? <span className="muted"> ({tabKind(v)})</span> : null}
            </button>
          ))}
        </div>
        <button type="button" className="ghost" onClick={() => setAdding((a) => !a)} aria-expanded={adding}>+ View</button>
        <QuickAdd board={board} view={view} />
      </div>
      {adding && <NewView board={board} onDone={() => setAdding(false)} />}
      {view && <FilterBar board={board} view={view} me={me} />}
      <div role="tabpanel" aria-label={view?.name ?? 'Tasks'} className="view-body">
        {!view || view.kind === 'board' ? (
          <BoardView board={board} view={view} tasks={tasks} presence={presence} />
        ) : view.kind === 'list' ? (
          <ListView board={board} view={view} tasks={tasks} />
        ) : (
          <RoadmapView board={board} view={view} tasks={tasks} />
        )}
      </div>
    </>
  );
}

/** The header box: a new task lands in the view's first real column, not in "No …". */
function QuickAdd({ board, view }: { board: Board; view: View | undefined }) {
  const qc = useQueryClient();
  const [title, setTitle] = useState('');
  const add = useAction();
  const groupBy = board.properties.find((p) => p.id === view?.groupById);
  // Only options make a column a task belongs in by default; a person or a tick is not given
  // to every new task (it waits in "No …" for someone to choose).
  const first = groupBy && (groupBy.type === 'select' || groupBy.type === 'iteration') ? firstRealColumn(buildColumns(board, groupBy, [])) : undefined;
  return (
    <form
      className="quick-add"
      onSubmit={(e) => {
        e.preventDefault();
        if (!title.trim()) return;
        void add.run(async () => {
          await createTask(qc, board, title, columnValues(groupBy?.id, first));
          setTitle('');
        });
      }}
    >
      <label className="sr-only" htmlFor="new-task-title">New task title</label>
      <input id="new-task-title" placeholder={`New task${view ? ` in ${view.name}` : ''}${first ? `, ${first.name}` : ''}…`} value={title} maxLength={400} onChange={(e) => setTitle(e.target.value)} />
      <button type="submit" className="primary" disabled={add.busy}>Add task</button>
      <ErrorLine error={add.error} />
    </form>
  );
}

function NewView({ board, onDone }: { board: Board; onDone: () => void }) {
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<ViewKind>('board');
  const groupable = groupableProperties(board, kind);
  const [groupById, setGroupById] = useState('');
  const act = useAction();
  return (
    <form
      className="inline-form"
      aria-label="New view"
      onSubmit={(e) => {
        e.preventDefault();
        void act.run(async () => {
          const a = await post<{ view: View }>(`/projects/${board.project.id}/views`, { name, kind, groupById: groupById || undefined });
          await qc.invalidateQueries({ queryKey: ['board', board.project.id] });
          setQuery({ view: a.view.id });
          onDone();
        });
      }}
    >
      <label>View name<input required value={name} onChange={(e) => setName(e.target.value)} /></label>
      <label>
        Kind
        <select value={kind} onChange={(e) => setKind(e.target.value as ViewKind)}>
          <option value="board">Board</option>
          <option value="list">List</option>
          <option value="roadmap">Roadmap</option>
        </select>
      </label>
      <label>
        Group by
        <select value={groupById} onChange={(e) => setGroupById(e.target.value)}>
          <option value="">{kind === 'list' ? 'Nothing' : 'Choose a property'}</option>
          {groupable.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
        </select>
      </label>
      <button type="submit" className="primary" disabled={act.busy}>Create view</button>
      <ErrorLine error={act.error} />
    </form>
  );
}
