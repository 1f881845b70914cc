import { useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { CLIENT_ID, get, post } from '../api/client';
import type { Board, ChangeEvent, FullTask, PresenceEvent } from '../api/types';

export type Presence = Map<string, PresenceEvent & { seenAt: number }>; // by clientId

// What this tab has open, announced again when someone new appears, on reconnect and every
// 30 seconds: presence is not stored, so a tab that opens later learns it from the others.
let mine: { projectId: string; taskId: string | null; field: string | null } | null = null;
const PRESENCE_REFRESH_MS = 30_000;
const PRESENCE_STALE_MS = 75_000;

/** Puts a freshly read task's board fields into the cached board (title, counts, values…). */
export function patchBoardTask(qc: QueryClient, projectId: string, task: FullTask): void {
  qc.setQueryData<Board>(['board', projectId], (board) => {
    if (!board) return board;
    const i = board.tasks.findIndex((t) => t.id === task.id);
    if (i < 0) return board;
    const { links: _l, parent: _p, children: _c, checklist: _k, comments: _m, activity: _a, run: _r, pastRuns: _pr, ...fields } = task;
    const tasks = board.tasks.slice();
    tasks[i] = { ...tasks[i], ...fields };
    return { ...board, tasks };
  });
}

/**
 * The project's stream: a `change` names what to re-read (our own, by clientId, is skipped);
 * `ready` — first connect and every reconnect — means re-read everything shown; presence is kept
 * apart and never causes a read. A stream closed for good (e.g. the server restarted with an
 * error answer) is opened again after a pause.
 */
export function useProjectStream(projectId: string): { presence: Presence; connected: boolean } {
  const qc = useQueryClient();
  const [presence, setPresence] = useState<Presence>(new Map());
  const [connected, setConnected] = useState(false);
  const pendingTasks = useRef(new Set<string>());
  const timer = useRef<number | null>(null);

  useEffect(() => {
    let source: EventSource | null = null;
    let retry: number | null = null;
    let stopped = false;
    const known = new Set<string>();
    const reannounce = () => {
      if (mine && mine.projectId === projectId && mine.taskId) announcePresence(projectId, mine.taskId, mine.field);
    };
    // Refresh our own presence, and forget tabs that went quiet (closed without saying so).
    const tick = window.setInterval(() => {
      reannounce();
      setPresence((old) => {
        const now = Date.now();
        const next = new Map([...old].filter(([, p]) => now - p.seenAt < PRESENCE_STALE_MS));
        return next.size === old.size ? old : next;
      });
    }, PRESENCE_REFRESH_MS);

    const flush = () => {
      timer.current = null;
      const ids = [...pendingTasks.current];
      pendingTasks.current.clear();
      for (const id of ids) {
        void qc
          .fetchQuery({ queryKey: ['task', id], queryFn: () => get<{ task: FullTask }>(`/tasks/${id}`).then((a) => a.task), staleTime: 0 })
          .then((task) => patchBoardTask(qc, projectId, task))
          .catch(() => undefined);
      }
    };
    const refetchTask = (id: string) => {
      pendingTasks.current.add(id);
      if (timer.current === null) timer.current = window.setTimeout(flush, 50);
    };

    const open = () => {
      source = new EventSource(`/api/projects/${projectId}/stream`);
      source.addEventListener('ready', () => {
        setConnected(true);
        // Say who we are on every (re)connect, even with no task open: the others answer with
        // their own presence when they see a tab they do not know, so a late tab learns it too.
        const open = mine && mine.projectId === projectId ? mine : null;
        announcePresence(projectId, open?.taskId ?? null, open?.field ?? null);
        void qc.invalidateQueries({ queryKey: ['board', projectId] });
        void qc.invalidateQueries({ queryKey: ['task'] });
        void qc.invalidateQueries({ queryKey: ['project-extra', projectId] });
      });
      source.addEventListener('change', (e) => {
        const change = JSON.parse((e as MessageEvent).data) as ChangeEvent;
        if (change.clientId === CLIENT_ID) return;
        // Any change may have written a feed line: the Activity page re-reads when it is open.
        void qc.invalidateQueries({ queryKey: ['project-extra', projectId, 'activity'] });
        if (change.scope === 'board' || change.scope === 'project') {
          void qc.invalidateQueries({ queryKey: ['board', projectId] });
          // The project list carries what the board read leaves out (the daily budget).
          if (change.scope === 'project') { void qc.invalidateQueries({ queryKey: ['project-extra', projectId] }); void qc.invalidateQueries({ queryKey: ['projects'] }); }
          if (change.taskId) void qc.invalidateQueries({ queryKey: ['task', change.taskId] });
        } else if (change.scope === 'task' && change.taskId) {
          refetchTask(change.taskId);
        }
      });
      source.addEventListener('presence', (e) => {
        const p = JSON.parse((e as MessageEvent).data) as PresenceEvent;
        if (p.clientId === CLIENT_ID) return;
        if (!known.has(p.clientId)) {
          known.add(p.clientId);
          reannounce();
        }
        setPresence((old) => {
          const next = new Map(old);
          if (p.taskId) next.set(p.clientId, { ...p, seenAt: Date.now() });
          else next.delete(p.clientId);
          return next;
        });
      });
      source.onerror = () => {
        setConnected(false);
        if (source?.readyState === EventSource.CLOSED && !stopped) {
          source.close();
          retry = window.setTimeout(open, 3000);
        }
      };
    };
    open();
    return () => {
      stopped = true;
      clearInterval(tick);
      source?.close();
      if (retry !== null) clearTimeout(retry);
    };
  }, [projectId, qc]);

  return { presence, connected };
}

/** Tells the others which task (and field) this tab has open. */
export function announcePresence(projectId: string, taskId: string | null, field: string | null): void {
  mine = { projectId, taskId, field };
  // A retry sends what is open by then, never an older state.
  const send = () => post(`/projects/${projectId}/presence`, { clientId: CLIENT_ID, taskId: mine?.taskId ?? null, field: mine?.field ?? null });
  // One more try after a second if the service was busy; presence is a hint, never an error.
  void send().catch(() => new Promise((r) => setTimeout(r, 1000)).then(send).catch(() => undefined));
}
