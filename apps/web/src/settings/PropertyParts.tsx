import { useState } from 'react';
import { patch } from '../api/client';
import type { Board, Option, Property } from '../api/types';

type Saved = () => Promise<void>;
type OnError = (e: string | null) => void;

async function attempt(fn: () => Promise<unknown>, onSaved: Saved, onError: OnError): Promise<void> {
  try {
    await fn();
    onError(null);
    await onSaved();
  } catch (e) {
    onError((e as Error).message);
  }
}

/**
 * Earlier / later buttons for one item of an ordered list, sent as `afterId` (null: the front).
 * Moving up puts it after the item two places before; moving down after the next one.
 */
export function MoveButtons({ ids, id, label, path, onSaved, onError, words = ['up', 'down'] }: {
  ids: string[]; id: string; label: string; path: string; onSaved: Saved; onError: OnError; words?: [string, string];
}) {
  const i = ids.indexOf(id);
  const move = (afterId: string | null) => void attempt(() => patch(path, { afterId }), onSaved, onError);
  return (
    <span className="move-buttons">
      <button type="button" className="icon" aria-label={`Move ${label} ${words[0]}`} disabled={i <= 0} onClick={() => move(i >= 2 ? ids[i - 2] : null)}>↑</button>
      <button type="button" className="icon" aria-label={`Move ${label} ${words[1]}`} disabled={i < 0 || i >= ids.length - 1} onClick={() => move(ids[i + 1])}>↓</button>
    </span>
  );
}

/** A property shown only while a select holds one of some options (`when`); any member may set it. */
export function WhenRule({ prop, board, onSaved, onError }: { prop: Property; board: Board; onSaved: Saved; onError: OnError }) {
  const selects = board.properties.filter((p) => p.type === 'select' && p.id !== prop.id);
  const when = prop.config?.when ?? null;
  const [pickedId, setPickedId] = useState<string>(when?.propertyId ?? '');
  const picked = selects.find((s) => s.id === pickedId) ?? null;
  // Ticks answer at once; a refused save shows its error and the next read puts the saved rule back.
  const [ticked, setTicked] = useState<{ propertyId: string; optionIds: string[] } | null>(null);
  const held = ticked ?? when;
  const chosen = held && held.propertyId === pickedId ? held.optionIds : [];
  const save = (body: { propertyId: string; optionIds: string[] } | null) => {
    setTicked(body);
    void attempt(() => patch(`/properties/${prop.id}`, { when: body }), onSaved, onError).then(() => setTicked(null));
  };
  if (selects.length === 0) return null;
  return (
    <div className="when-rule">
      <label>
        Show {prop.name}
        <select
          value={pickedId}
          onChange={(e) => {
            setPickedId(e.target.value);
            if (!e.target.value && when) save(null);
          }}
        >
          <option value="">always</option>
          {selects.map((s) => <option key={s.id} value={s.id}>when {s.name} is one of…</option>)}
        </select>
      </label>
      {picked && (
        <fieldset className="choice-list">
          <legend>{prop.name} shows when {picked.name} is</legend>
          {picked.options.map((o) => (
            <label key={o.id} className="check">
              <input
                type="checkbox"
                checked={chosen.includes(o.id)}
                onChange={(e) => {
                  const next = e.target.checked ? [...chosen, o.id] : chosen.filter((x) => x !== o.id);
                  save(next.length ? { propertyId: picked.id, optionIds: next } : null);
                }}
              />
              {o.name}
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
}

/** The project's Type: its first select named "Type", as the service reads it. */
export function typeProperty(board: Board): Property | null {
  return board.properties.find((p) => p.type === 'select' && p.name.trim().toLowerCase() === 'type') ?? null;
}

const CAN_DEFAULT = new Set(['select', 'multi_select', 'checkbox', 'number', 'text']);

/** Per-Type defaults of a property (`defaults`: owner and admins); written on every create of that type. */
export function TypeDefaults({ prop, board, onSaved, onError }: { prop: Property; board: Board; onSaved: Saved; onError: OnError }) {
  const type = typeProperty(board);
  if (!type || type.id === prop.id || !CAN_DEFAULT.has(prop.type) || type.options.length === 0) return null;
  const defaults = prop.config?.defaults ?? {};
  const save = (typeOptionId: string, value: unknown) =>
    void attempt(() => patch(`/properties/${prop.id}`, { defaults: { [typeOptionId]: value } }), onSaved, onError);
  return (
    <details className="type-defaults">
      <summary>Defaults of {prop.name} by {type.name}</summary>
      <ul className="rows">
        {type.options.map((t) => (
          <li key={t.id} className="row">
            <DefaultEditor prop={prop} typeOption={t} value={defaults[t.id] ?? null} onSave={(v) => save(t.id, v)} />
          </li>
        ))}
      </ul>
    </details>
  );
}

function DefaultEditor({ prop, typeOption, value, onSave }: { prop: Property; typeOption: Option; value: unknown; onSave: (v: unknown) => void }) {
  const label = `Default of ${prop.name} for ${typeOption.name}`;
  const [draft, setDraft] = useState(value === null || value === undefined ? '' : String(value));
  if (prop.type === 'select') {
    return (
      <label>{label}<select value={(value as string) ?? ''} onChange={(e) => onSave(e.target.value || null)}>
        <option value="">no default</option>
        {prop.options.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
      </select></label>
    );
  }
  if (prop.type === 'checkbox') {
    return (
      <label>{label}<select value={value === true ? 'yes' : value === false ? 'no' : ''} onChange={(e) => onSave(e.target.value === '' ? null : e.target.value === 'yes')}>
        <option value="">no default</option><option value="yes">ticked</option><option value="no">not ticked</option>
      </select></label>
    );
  }
  if (prop.type === 'multi_select') {
    const list = Array.isArray(value) ? (value as string[]) : [];
    return (
      <fieldset className="choice-list">
        <legend>{label}</legend>
        {prop.options.map((o) => (
          <label key={o.id} className="check">
            <input type="checkbox" checked={list.includes(o.id)} onChange={(e) => { const next = e.target.checked ? [...list, o.id] : list.filter((x) => x !== o.id); onSave(next.length ? next : null); }} />
            {o.name}
          </label>
        ))}
      </fieldset>
    );
  }
  const commit = () => {
    const now = value === null || value === undefined ? '' : String(value);
    if (draft === now) return;
    onSave(draft === '' ? null : prop.type === 'number' ? Number(draft) : draft);
  };
  return (
    <label>{label}<input type={prop.type === 'number' ? 'number' : 'text'} value={draft} onChange={(e) => setDraft(e.target.value)} onBlur={commit} onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); commit(); } }} /></label>
  );
}

/** The markdown note of a release or sprint (dated options), kept to at most 8000 characters. */
export function OptionNote({ option, onSaved, onError }: { option: Option; onSaved: Saved; onError: OnError }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(option.note ?? '');
  const id = `note-${option.id}`;
  return (
    <>
      <button type="button" aria-expanded={open} onClick={() => { setText(option.note ?? ''); setOpen(!open); }}>{option.note ? 'Edit note' : 'Add note'}<span className="sr-only"> of {option.name}</span></button>
      {open && (
        <form className="option-note" onSubmit={(e) => { e.preventDefault(); void attempt(async () => { await patch(`/options/${option.id}`, { note: text.trim() ? text : null }); setOpen(false); }, onSaved, onError); }}>
          <label htmlFor={id}>Note of {option.name} (markdown)</label>
          <textarea id={id} rows={3} maxLength={8000} value={text} onChange={(e) => setText(e.target.value)} />
          <button type="submit">Save note</button>
        </form>
      )}
    </>
  );
}
