import { useEffect, useState } from 'react';
import type { Member, Property } from '../api/types';

/** Shows a change at once (the write follows), so an editor never waits for the round trip. */
export function useLocal<T>(value: T): [T, (v: T) => void] {
  const [local, setLocal] = useState(value);
  const key = JSON.stringify(value ?? null);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => setLocal(value), [key]);
  return [local, setLocal];
}

/** One editor per property type; `onSave` gets the value to PUT. */
export function PropertyEditor({ prop, value, members, onSave }: { prop: Property; value: unknown; members: Member[]; onSave: (v: unknown) => void }) {
  const id = `prop-${prop.id}`;
  const [local, setLocal] = useLocal(value);
  const save = (v: unknown) => {
    setLocal(v);
    onSave(v);
  };
  switch (prop.type) {
    case 'select':
    case 'iteration':
      return (
        <select id={id} value={typeof local === 'string' ? local : ''} onChange={(e) => save(e.target.value || null)}>
          <option value="">—</option>
          {prop.options.map((o) => <option key={o.id} value={o.id}>{o.name}{o.shippedAt ? ' (shipped)' : ''}</option>)}
        </select>
      );
    case 'person':
      return (
        <select id={id} value={typeof local === 'string' ? local : ''} onChange={(e) => save(e.target.value || null)}>
          <option value="">Nobody</option>
          {members.map((m) => <option key={m.id} value={m.id}>{m.name}{m.kind === 'agent' ? ' (agent)' : ''}</option>)}
        </select>
      );
    case 'multi_select': {
      const held = Array.isArray(local) ? (local as string[]) : [];
      return (
        <fieldset className="choice-list" id={id} aria-label={prop.name}>
          {prop.options.map((o) => (
            <label key={o.id} className="check">
              <input type="checkbox" checked={held.includes(o.id)} onChange={(e) => save(e.target.checked ? [...held, o.id] : held.filter((x) => x !== o.id))} />
              <span className="chip-dot" style={{ background: o.color }} aria-hidden="true" /> {o.name}
            </label>
          ))}
          {prop.options.length === 0 && <span className="muted">No options yet</span>}
        </fieldset>
      );
    }
    case 'checkbox':
      return <input id={id} type="checkbox" checked={local === true} onChange={(e) => save(e.target.checked)} />;
    case 'date':
      return <input id={id} type="date" value={typeof local === 'string' ? local : ''} onChange={(e) => save(e.target.value || null)} />;
    case 'number':
      return <TextEditor id={id} value={value == null ? '' : String(value)} type="number" onSave={(v) => onSave(v === '' ? null : v)} />;
    case 'link':
      return (
        <TextEditor
          id={id}
          value={Array.isArray(value) ? (value as string[]).join('\n') : ''}
          multiline
          placeholder="One http(s) link a line"
          onSave={(v) => onSave(v.split('\n').map((s) => s.trim()).filter(Boolean))}
        />
      );
    default:
      return <TextEditor id={id} value={typeof value === 'string' ? value : ''} onSave={(v) => onSave(v)} />;
  }
}

function TextEditor({ id, value, onSave, type = 'text', multiline, placeholder }: { id: string; value: string; onSave: (v: string) => void; type?: string; multiline?: boolean; placeholder?: string }) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const commit = () => {
    if (draft !== value) onSave(draft);
  };
  if (multiline)
    return <textarea id={id} rows={2} value={draft} placeholder={placeholder} onChange={(e) => setDraft(e.target.value)} onBlur={commit} />;
  return (
    <input
      id={id}
      type={type}
      value={draft}
      placeholder={placeholder}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); commit(); } }}
    />
  );
}
