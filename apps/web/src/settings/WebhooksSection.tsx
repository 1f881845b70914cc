import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { del, get, patch, post } from '../api/client';
import type { Board, ChangedWebhook, Delivery, NewWebhook, Webhook } from '../api/types';
import { ErrorLine, Once, useAction } from '../ui/Field';

const HOOK_KINDS = ['created', 'title', 'description', 'value', 'checklist', 'comment', 'run', 'archive', 'link', 'deleted', 'reset', 'import', 'attachment', 'rules'];

/** Kinds to tick; none ticked means every kind. */
function KindPicker({ legend, kinds, onChange }: { legend: string; kinds: string[]; onChange: (k: string[]) => void }) {
  return (
    <fieldset className="choice-list">
      <legend>{legend}</legend>
      {HOOK_KINDS.map((k) => (
        <label key={k} className="check">
          <input type="checkbox" checked={kinds.includes(k)} onChange={(e) => onChange(e.target.checked ? [...kinds, k] : kinds.filter((x) => x !== k))} />
          {k}
        </label>
      ))}
    </fieldset>
  );
}

export function WebhooksSection({ board }: { board: Board }) {
  const pid = board.project.id;
  const hooks = useQuery({ queryKey: ['project-extra', pid, 'webhooks'], queryFn: () => get<{ webhooks: Webhook[] }>(`/projects/${pid}/webhooks`) });
  const [url, setUrl] = useState('');
  const [kinds, setKinds] = useState<string[]>([]);
  const [secret, setSecret] = useState<string | null>(null);
  const act = useAction();
  const again = async () => { await hooks.refetch(); };
  return (
    <section aria-labelledby="hooks-h">
      <h2 id="hooks-h">Webhooks</h2>
      {secret && <Once label="The webhook's signing secret." secret={secret} />}
      <ul className="rows">
        {hooks.data?.webhooks.map((w) => <WebhookRow key={w.id} pid={pid} hook={w} onSecret={setSecret} onChanged={again} />)}
      </ul>
      <form className="inline-form" onSubmit={(e) => { e.preventDefault(); void act.run(async () => { const a = await post<NewWebhook>(`/projects/${pid}/webhooks`, { url, kinds }); setSecret(a.secret); setUrl(''); setKinds([]); await again(); }); }}>
        <label>Webhook URL<input type="url" required value={url} onChange={(e) => setUrl(e.target.value)} /></label>
        <KindPicker legend="Kinds (none ticked: all)" kinds={kinds} onChange={setKinds} />
        <button type="submit">Add webhook</button>
      </form>
      <ErrorLine error={act.error} />
    </section>
  );
}

function WebhookRow({ pid, hook: w, onSecret, onChanged }: { pid: string; hook: Webhook; onSecret: (s: string) => void; onChanged: () => Promise<void> }) {
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const [url, setUrl] = useState(w.url);
  const [kinds, setKinds] = useState<string[]>(w.kinds);
  const act = useAction();
  const path = `/projects/${pid}/webhooks/${w.id}`;
  const startEdit = () => { setUrl(w.url); setKinds(w.kinds); setEditing(!editing); };
  return (
    <li className="row webhook-row">
      <code className="url">{w.url}</code>
      <span className="muted">{w.kinds.length ? w.kinds.join(', ') : 'all kinds'} · {w.secretPrefix}… · {w.lastDelivery ? `last ${w.lastDelivery.status}` : 'no deliveries'}</span>
      <label className="check"><input type="checkbox" checked={w.enabled} onChange={(e) => void act.run(async () => { await patch(path, { enabled: e.target.checked }); await onChanged(); })} /> On</label>
      <button type="button" onClick={startEdit} aria-expanded={editing}>Edit</button>
      <button type="button" onClick={() => void act.run(async () => { await post(path); await onChanged(); })}>Send test</button>
      <button type="button" onClick={() => void act.run(async () => { const a = await patch<ChangedWebhook>(path, { roll: true }); if (a.secret !== undefined) onSecret(a.secret); await onChanged(); })}>Roll secret</button>
      <button type="button" onClick={() => setOpen(!open)} aria-expanded={open}>Deliveries</button>
      <button type="button" className="danger" onClick={() => void act.run(async () => { await del(path); await onChanged(); })}>Delete</button>
      {editing && (
        <form
          className="inline-form"
          aria-label={`Edit webhook ${w.url}`}
          onSubmit={(e) => { e.preventDefault(); void act.run(async () => { await patch(path, { url, kinds }); setEditing(false); await onChanged(); }); }}
        >
          <label>URL of this webhook<input type="url" required value={url} onChange={(e) => setUrl(e.target.value)} /></label>
          <KindPicker legend="Its kinds (none ticked: all)" kinds={kinds} onChange={setKinds} />
          <button type="submit">Save webhook</button>
          <button type="button" className="ghost" onClick={() => setEditing(false)}>Cancel</button>
        </form>
      )}
      {open && <Deliveries pid={pid} id={w.id} />}
      <ErrorLine error={act.error} />
    </li>
  );
}

function Deliveries({ pid, id }: { pid: string; id: string }) {
  const q = useQuery({ queryKey: ['project-extra', pid, 'deliveries', id], queryFn: () => get<{ deliveries: Delivery[] }>(`/projects/${pid}/webhooks/${id}/deliveries`) });
  return (
    <ul className="deliveries">
      {q.data?.deliveries.map((d) => <li key={d.id}>{d.kind} {d.taskKey ?? ''} · {d.status} · {d.tries} tries {d.lastCode ? `· ${d.lastCode}` : ''} {d.lastError ?? ''}</li>)}
      {q.data?.deliveries.length === 0 && <li className="muted">No deliveries yet.</li>}
    </ul>
  );
}
