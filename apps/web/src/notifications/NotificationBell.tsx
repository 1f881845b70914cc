import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post } from '../api/client';
import type { AppNotification, FullTask, Inbox } from '../api/types';
import { navigate } from '../router';
import { QuestionBox } from '../task/RunQuestion';
import { ErrorLine, useAction } from '../ui/Field';

const KIND_WORDS: Record<AppNotification['kind'], string> = {
  question: 'asks',
  mention: 'mentioned you',
  assigned: 'put you into',
  run_ended: 'ended a run',
};

/**
 * The person's own stream: each new notification, and `ready` on every (re)connect, reads the
 * inbox again, so the bell's count is live without reloading and right after a reconnect.
 */
function useNotificationStream(): void {
  const qc = useQueryClient();
  useEffect(() => {
    let source: EventSource | null = null;
    let retry: number | null = null;
    let stopped = false;
    const reread = () => void qc.invalidateQueries({ queryKey: ['notifications'] });
    const open = () => {
      source = new EventSource('/api/notifications/stream');
      source.addEventListener('ready', reread);
      source.addEventListener('notification', reread);
      source.onerror = () => {
        // The browser reconnects by itself; a stream closed for good is opened again after a pause.
        if (source?.readyState === EventSource.CLOSED && !stopped) retry = window.setTimeout(open, 5000);
      };
    };
    open();
    return () => {
      stopped = true;
      source?.close();
      if (retry !== null) window.clearTimeout(retry);
    };
  }, [qc]);
}

/** The bell in the top bar: the unread count, and a panel of the newest notifications. */
export function NotificationBell() {
  useNotificationStream();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const inbox = useQuery({ queryKey: ['notifications'], queryFn: () => get<Inbox>('/notifications') });
  const mark = useAction();
  const unread = inbox.data?.unread ?? 0;
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  const markRead = (body: { ids: string[] } | { all: true }) =>
    mark.run(async () => {
      await post('/notifications/read', body);
      await qc.invalidateQueries({ queryKey: ['notifications'] });
    });

  const openTask = (n: AppNotification) => {
    if (!n.read) void markRead({ ids: [n.id] });
    setOpen(false);
    navigate(`/p/${n.project.id}?task=${n.task.id}`);
  };

  return (
    <div className="bell">
      <button
        type="button"
        className="ghost bell-button"
        aria-expanded={open}
        aria-controls="notifications-panel"
        aria-label={`Notifications, ${unread} unread`}
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true">🔔</span>
        {unread > 0 && <span className="bell-count" data-testid="unread-count">{unread > 99 ? '99+' : unread}</span>}
      </button>
      {open && (
        <div id="notifications-panel" className="bell-panel" role="dialog" aria-label="Notifications" tabIndex={-1} ref={panel}>
          <div className="bell-head">
            <h2>Notifications</h2>
            <button type="button" className="ghost" disabled={unread === 0 || mark.busy} onClick={() => void markRead({ all: true })}>Mark all read</button>
          </div>
          <ErrorLine error={mark.error} />
          {inbox.data && inbox.data.notifications.length === 0 && <p className="muted">Nothing needs you.</p>}
          <ul className="bell-list">
            {inbox.data?.notifications.map((n) => (
              <li key={n.id} className={n.read ? 'read' : 'unread'}>
                <button type="button" className="link bell-item" onClick={() => openTask(n)}>
                  <strong>{n.actor?.name ?? 'Someone'}</strong> {KIND_WORDS[n.kind]} <span className="muted">{n.task.key}</span> {n.task.title}
                </button>
                <p className="bell-text">{n.kind === 'assigned' ? `as ${n.text}` : n.text}</p>
                {n.kind === 'question' && <OpenQuestion taskId={n.task.id} />}
                {!n.read && (
                  <button type="button" className="ghost" onClick={() => void markRead({ ids: [n.id] })}>Mark read</button>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** A question's answer buttons, while the task's run still waits on it. */
function OpenQuestion({ taskId }: { taskId: string }) {
  const task = useQuery({ queryKey: ['task', taskId], queryFn: () => get<{ task: FullTask }>(`/tasks/${taskId}`).then((a) => a.task) });
  const run = task.data?.run;
  if (!run?.question || run.question.answer) return null;
  return <QuestionBox run={run} />;
}
