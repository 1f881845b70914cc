import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, del, errorText, get, patch, post, put } from '../api/client';
import type { Board, FullTask, User } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';
import { Markdown } from '../ui/Markdown';
import { announcePresence, patchBoardTask, type Presence } from '../board/live';
import { hiddenFor } from '../board/model';
import { PropertyEditor } from './PropertyEditor';
import { Checklist } from './Checklist';
import { Comments } from './Comments';
import { Links } from './Links';
import { Activity } from './Activity';
import { RunBox } from './RunBox';
import { Files } from '../extra/Files';
import { AddToList } from '../extra/ListsPage';

export function useTask(taskId: string) {
  return useQuery({ queryKey: ['task', taskId], queryFn: async () => (await get<{ task: FullTask }>(`/tasks/${taskId}`)).task, staleTime: 5_000 });
}

export function TaskPanel({ taskId, board, me, presence, onClose }: { taskId: string; board: Board; me: User; presence: Presence; onClose: () => void }) {
  const qc = useQueryClient();
  const task = useTask(taskId);
  const pid = board.project.id;
  const panelRef = useRef<HTMLDivElement | null>(null);
  const act = useAction();

  useEffect(() => {
    announcePresence(pid, taskId, null);
    const opener = document.activeElement as HTMLElement | null;
    panelRef.current?.focus();
    return () => {
      announcePresence(pid, null, null);
      opener?.focus?.();
    };
  }, [pid, taskId]);

  useEffect(() => {
    if (task.data) patchBoardTask(qc, pid, task.data);
  }, [task.data, qc, pid]);

  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: ['task', taskId] });
  };
  const editing = [...presence.values()].filter((p) => p.taskId === taskId);
  const data = task.data; // a local, so the checks below hold inside the callbacks too
  const nameOf = (userId: string) => board.members.find((m) => m.id === userId)?.name ?? 'Someone';

  return (
    <div className="panel-backdrop" onClick={(e) => { if (e.target === e.currentTarget) onClose(); }}>
      <div
        className="panel"
        role="dialog"
        aria-modal="true"
        aria-labelledby="task-title-label"
        tabIndex={-1}
        ref={panelRef}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onClose();
          if (e.key === 'Tab') keepFocusInside(e, panelRef.current);
        }}
      >
        <div className="panel-head">
          <span className="card-key" id="task-title-label">{task.data ? `Task ${task.data.key}` : 'Task'}</span>
          {editing.map((p) => (
            <span key={p.clientId} className="presence-note" role="status">
              {nameOf(p.userId)} {p.field ? `is editing ${p.field.startsWith('checklist:') ? 'the checklist' : `the ${p.field}`}` : 'has this open'}
            </span>
          ))}
          <button type="button" className="icon close" aria-label="Close task" onClick={onClose}>×</button>
        </div>
        {task.isPending && <p role="status">Loading…</p>}
        {task.isError && <p className="error" role="alert">{task.error.message}</p>}
        {data && (
          <div className="panel-body">
            <TitleField task={data} pid={pid} onSaved={refresh} />
            {data.archivedAt && <p className="notice">Archived on {new Date(data.archivedAt).toLocaleString()}.</p>}
            <section aria-labelledby="props-h" className="props">
              <h3 id="props-h" className="sr-only">Properties</h3>
              <dl className="prop-grid">
                {board.properties
                  .filter((p) => !hiddenFor(p, data.values))
                  .map((p) => (
                    <div key={p.id} className="prop-row">
                      <dt><label htmlFor={`prop-${p.id}`}>{p.name}</label></dt>
                      <dd>
                        <PropertyEditor
                          prop={p}
                          value={data.values[p.id]}
                          members={board.members}
                          onSave={(value) =>
                            void act.run(async () => {
                              await put(`/tasks/${taskId}/values/${p.id}`, { value });
                              await refresh();
                            })
                          }
                        />
                      </dd>
                    </div>
                  ))}
              </dl>
              <ErrorLine error={act.error} />
            </section>
            <DescriptionField task={data} pid={pid} onSaved={refresh} />
            {data.run || data.pastRuns.length ? <RunBox task={data} onChanged={refresh} /> : null}
            <Checklist task={data} pid={pid} onChanged={refresh} />
            <Links task={data} board={board} onChanged={refresh} />
            <Files task={data} me={me} board={board} />
            <Comments task={data} me={me} board={board} onChanged={refresh} />
            <Activity task={data} />
            <TaskActions task={data} pid={pid} onClose={onClose} onChanged={refresh} />
          </div>
        )}
      </div>
    </div>
  );
}

/** A clash answer: the saved words now, and a choice of which to keep. */
function Clash({ current, onUseSaved, onOverwrite }: { current: string; onUseSaved: () => void; onOverwrite: () => void }) {
  return (
    <div className="clash" role="alert">
      <p><strong>This changed while you typed.</strong> Saved now:</p>
      <blockquote className="clash-current">{current || <em>(empty)</em>}</blockquote>
      <button type="button" onClick={onUseSaved}>Use the saved text</button>
      <button type="button" onClick={onOverwrite}>Keep mine</button>
    </div>
  );
}

/** A clash keeps both texts: what is saved now, and the words this tab tried to save. */
interface ClashState { current: string; mine: string }

function useClashSave(taskId: string, field: 'title' | 'description', onSaved: () => Promise<void>) {
  const [clash, setClash] = useState<ClashState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = async (text: string, base: string | null): Promise<boolean> => {
    setError(null);
    try {
      const body: Record<string, string> = { [field]: text };
      if (base !== null) body[field === 'title' ? 'baseTitle' : 'baseDescription'] = base;
      await patch(`/tasks/${taskId}`, body);
      setClash(null);
      await onSaved();
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && typeof e.body.current === 'string') setClash({ current: e.body.current, mine: text });
      else setError(errorText(e));
      return false;
    }
  };
  return { clash, setClash, error, save };
}

function TitleField({ task, pid, onSaved }: { task: FullTask; pid: string; onSaved: () => Promise<void> }) {
  const [draft, setDraft] = useState(task.title);
  const [base, setBase] = useState(task.title);
  const focused = useRef(false);
  const { clash, setClash, error, save } = useClashSave(task.id, 'title', onSaved);
  useEffect(() => {
    // Someone else's saved title shows at once unless we are typing, saving or deciding a clash.
    if (focused.current || saving.current || clash !== null) return;
    setDraft(task.title);
    setBase(task.title);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [task.title]);
  const saving = useRef(false);
  useEffect(() => {
    // The words this tab tried to save stay in the field while the clash is decided.
    if (clash) setDraft(clash.mine);
  }, [clash]);
  const commit = async () => {
    if (draft.trim() === base.trim() || !draft.trim()) return;
    saving.current = true;
    try {
      if (await save(draft, base)) setBase(draft);
    } finally {
      saving.current = false;
    }
  };
  return (
    <div className="title-field">
      <label htmlFor="task-title" className="sr-only">Title</label>
      <textarea
        id="task-title"
        className="title-input"
        rows={1}
        value={draft}
        maxLength={400}
        onFocus={() => { focused.current = true; announcePresence(pid, task.id, 'title'); }}
        onBlur={() => { focused.current = false; announcePresence(pid, task.id, null); void commit(); }}
        onChange={(e) => setDraft(e.target.value.replace(/\n/g, ' '))}
        onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); (e.target as HTMLTextAreaElement).blur(); } }}
      />
      <ErrorLine error={error} />
      {clash !== null && (
        <Clash
          current={clash.current}
          onUseSaved={() => { setDraft(clash.current); setBase(clash.current); setClash(null); }}
          onOverwrite={() => { const mine = clash.mine; void save(mine, null).then((ok) => ok && setBase(mine)); }}
        />
      )}
    </div>
  );
}

function DescriptionField({ task, pid, onSaved }: { task: FullTask; pid: string; onSaved: () => Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(task.description);
  const [base, setBase] = useState(task.description);
  const { clash, setClash, error, save } = useClashSave(task.id, 'description', onSaved);
  const start = () => {
    setDraft(task.description);
    setBase(task.description);
    setEditing(true);
    announcePresence(pid, task.id, 'description');
  };
  const stop = () => {
    setEditing(false);
    announcePresence(pid, task.id, null);
  };
  return (
    <section aria-labelledby="desc-h" className="description">
      <h3 id="desc-h">Description</h3>
      {editing ? (
        <form onSubmit={(e) => { e.preventDefault(); void save(draft, base).then((ok) => ok && stop()); }}>
          <label htmlFor="task-description" className="sr-only">Description (markdown)</label>
          <textarea id="task-description" rows={8} value={draft} maxLength={20000} onChange={(e) => setDraft(e.target.value)} />
          <div className="row-actions">
            <button type="submit" className="primary">Save description</button>
            <button type="button" onClick={stop}>Cancel</button>
          </div>
          {clash !== null && (
            <Clash
              current={clash.current}
              onUseSaved={() => { setDraft(clash.current); setBase(clash.current); setClash(null); }}
              onOverwrite={() => void save(clash.mine, null).then((ok) => ok && stop())}
            />
          )}
        </form>
      ) : (
        <>
          {task.description ? <Markdown text={task.description} /> : <p className="muted">No description.</p>}
          <button type="button" onClick={start}>Edit description</button>
        </>
      )}
      <ErrorLine error={error} />
    </section>
  );
}

function TaskActions({ task, pid, onClose, onChanged }: { task: FullTask; pid: string; onClose: () => void; onChanged: () => Promise<void> }) {
  const qc = useQueryClient();
  const act = useAction();
  const board = async () => { await qc.invalidateQueries({ queryKey: ['board', pid] }); await qc.invalidateQueries({ queryKey: ['project-extra', pid] }); };
  return (
    <section className="task-actions" aria-label="Task actions">
      <AddToList taskId={task.id} />
      {task.archivedAt ? (
        <button type="button" onClick={() => void act.run(async () => { await del(`/tasks/${task.id}/archive`); await onChanged(); await board(); })}>Put back on the board</button>
      ) : (
        <button type="button" onClick={() => void act.run(async () => { await post(`/tasks/${task.id}/archive`); await onChanged(); await board(); })}>Archive</button>
      )}
      <button
        type="button"
        className="danger"
        onClick={() => {
          if (!window.confirm(`Delete ${task.key}? It can be restored for 30 days.`)) return;
          void act.run(async () => { await del(`/tasks/${task.id}`); await board(); onClose(); });
        }}
      >
        Delete
      </button>
      <ErrorLine error={act.error} />
    </section>
  );
}


/** Tab and Shift+Tab go round the open panel (a modal dialog) instead of into the page behind. */
function keepFocusInside(e: React.KeyboardEvent, panel: HTMLElement | null): void {
  if (!panel) return;
  const items = [...panel.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, [tabindex="0"]')].filter(
    (el) => !el.hasAttribute('disabled') && el.offsetParent !== null,
  );
  if (items.length === 0) return;
  const first = items[0];
  const last = items[items.length - 1];
  if (e.shiftKey && (document.activeElement === first || document.activeElement === panel)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}
