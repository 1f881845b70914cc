import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { del, patch, post, put } from '../api/client';
import { setQuery } from '../router';
import type { Board, FilterOp, FilterRule, Sort, User, View } from '../api/types';
import { NONE } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';
import { groupableProperties, OPS, OP_LABEL } from './model';
import { MoveButtons } from '../settings/PropertyParts';
import { ViewCardRows } from './CardRows';

const SET_OPS = new Set(['is', 'is_not']);
const BLANK_OPS = new Set(['empty', 'not_empty']);
const SORT_COLUMNS: [string, string][] = [['_key', 'Key'], ['_title', 'Title'], ['_checklist', 'Checklist'], ['_comments', 'Comments'], ['_created', 'Created'], ['_updated', 'Updated']];

/** Shared filters (the team's), the personal lens (mine), the order, and promote. */
export function FilterBar({ board, view, me }: { board: Board; view: View; me: User }) {
  const qc = useQueryClient();
  const act = useAction();
  const [open, setOpen] = useState(false);
  const props = new Map(board.properties.map((p) => [p.id, p]));
  const refresh = () => qc.invalidateQueries({ queryKey: ['board', board.project.id] });

  const describe = (r: FilterRule) => {
    const p = props.get(r.propertyId);
    if (!p) return '';
    const vals = (r.values ?? []).map((v) =>
      v === NONE ? 'nothing' : v === '__me__' ? 'me' : p.options.find((o) => o.id === v)?.name ?? board.members.find((m) => m.id === v)?.name ?? v,
    );
    return `${p.name} ${OP_LABEL[r.op]} ${BLANK_OPS.has(r.op) ? '' : r.text ?? vals.join(' or ')}`;
  };
  // The document leaves `lens` out when the caller has none.
  const lensRules = view.lens?.rules ?? [];
  const writeShared = (rules: FilterRule[]) => act.run(async () => { await patch(`/views/${view.id}`, { filters: { rules } }); await refresh(); });
  const writeLens = (rules: FilterRule[], sort: Sort | null) => act.run(async () => { await put(`/views/${view.id}/lens`, { filters: { rules }, sort }); await refresh(); });

  return (
    <div className="filter-bar">
      <ul className="rules" aria-label="Filters">
        {view.filters.rules.map((r, i) => (
          <li key={`s${i}`} className="rule shared">
            <span>{describe(r)}</span>
            <button type="button" className="icon" aria-label={`Remove filter ${describe(r)} for everyone`} onClick={() => void writeShared(view.filters.rules.filter((_, j) => j !== i))}>×</button>
          </li>
        ))}
        {lensRules.map((r, i) => (
          <li key={`l${i}`} className="rule lens">
            <span><span className="muted">mine:</span> {describe(r)}</span>
            <button type="button" className="icon" aria-label={`Remove my filter ${describe(r)}`} onClick={() => void writeLens(lensRules.filter((_, j) => j !== i), view.lensSort ?? null)}>×</button>
          </li>
        ))}
      </ul>
      <button type="button" className="ghost" aria-expanded={open} onClick={() => setOpen((o) => !o)}>Filter</button>
      <label className="sort">
        My order
        <select
          value={view.lensSort ? `${view.lensSort.columnId}:${view.lensSort.direction}` : ''}
          onChange={(e) => {
            const [columnId, direction] = e.target.value.split(':');
            void writeLens(lensRules, columnId ? { columnId, direction: direction as 'asc' | 'desc' } : null);
          }}
        >
          <option value="">{view.sort ? 'The view’s order' : 'Board rank'}</option>
          {[...SORT_COLUMNS, ...board.properties.map((p) => [p.id, p.name] as [string, string])].flatMap(([id, name]) => [
            <option key={`${id}a`} value={`${id}:asc`}>{name} ↑</option>,
            <option key={`${id}d`} value={`${id}:desc`}>{name} ↓</option>,
          ])}
        </select>
      </label>
      {(lensRules.length > 0 || view.lensSort) && (
        <button type="button" onClick={() => void act.run(async () => { await post(`/views/${view.id}/lens/promote`); await refresh(); })}>
          Share my filters with everyone
        </button>
      )}
      <ViewMenu board={board} view={view} />
      {/* A plain link: the session cookie goes with it and the browser saves the file itself. */}
      <a className="button ghost" href={`/api/views/${view.id}/export.csv`} download title="The view’s tasks with its shared filters and order (not your own)">
        Download CSV
      </a>
      {open && <RuleForm board={board} onAdd={(rule, mine) => (mine ? writeLens([...lensRules, rule], view.lensSort ?? null) : writeShared([...view.filters.rules, rule]))} me={me} />}
      <ErrorLine error={act.error} />
    </div>
  );
}

function RuleForm({ board, onAdd }: { board: Board; onAdd: (rule: FilterRule, mine: boolean) => Promise<boolean>; me: User }) {
  const [propertyId, setPropertyId] = useState(board.properties[0]?.id ?? '');
  const prop = board.properties.find((p) => p.id === propertyId);
  const ops = prop ? OPS[prop.type] : [];
  const [op, setOp] = useState<string>(ops[0] ?? 'is');
  const [values, setValues] = useState<string[]>([]);
  const [text, setText] = useState('');
  const [mine, setMine] = useState(true);
  const choices: [string, string][] = !prop
    ? []
    : prop.type === 'checkbox'
      ? [['true', 'checked'], ['false', 'not checked']]
      : prop.type === 'person'
        ? [['__me__', 'Me'], [NONE, 'Nobody'], ...board.members.map((m) => [m.id, m.name] as [string, string])]
        : [[NONE, 'Nothing yet'], ...prop.options.map((o) => [o.id, o.name] as [string, string])];
  const effectiveOp = ops.includes(op) ? op : ops[0];
  return (
    <form
      className="inline-form rule-form"
      aria-label="Add a filter"
      onSubmit={(e) => {
        e.preventDefault();
        if (!prop) return;
        const rule: FilterRule = { propertyId, op: effectiveOp as FilterOp };
        if (SET_OPS.has(effectiveOp)) rule.values = values;
        else if (!BLANK_OPS.has(effectiveOp)) rule.text = text;
        void onAdd(rule, mine).then((ok) => { if (ok) { setValues([]); setText(''); } });
      }}
    >
      <label>Property
        <select value={propertyId} onChange={(e) => { setPropertyId(e.target.value); setValues([]); }}>
          {board.properties.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
        </select>
      </label>
      <label>Condition
        <select value={effectiveOp} onChange={(e) => setOp(e.target.value)}>
          {ops.map((o) => <option key={o} value={o}>{OP_LABEL[o]}</option>)}
        </select>
      </label>
      {SET_OPS.has(effectiveOp) ? (
        <fieldset className="choice-list">
          <legend>Values</legend>
          {choices.map(([id, name]) => (
            <label key={id} className="check">
              <input type="checkbox" checked={values.includes(id)} onChange={(e) => setValues((v) => (e.target.checked ? [...v, id] : v.filter((x) => x !== id)))} />
              {name}
            </label>
          ))}
        </fieldset>
      ) : !BLANK_OPS.has(effectiveOp) ? (
        <label>Text<input value={text} onChange={(e) => setText(e.target.value)} type={prop?.type === 'date' ? 'date' : prop?.type === 'number' ? 'number' : 'text'} /></label>
      ) : null}
      <label className="check"><input type="checkbox" checked={mine} onChange={(e) => setMine(e.target.checked)} /> Only for me (my lens)</label>
      <button type="submit" className="primary">Add filter</button>
    </form>
  );
}

/** Rename or delete the view (deleting is the owner's or an admin's; the main view stays). */
function ViewMenu({ board, view }: { board: Board; view: View }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(view.name);
  const act = useAction();
  const admin = board.project.role === 'owner' || board.project.role === 'admin';
  const refresh = () => qc.invalidateQueries({ queryKey: ['board', board.project.id] });
  return (
    <>
      <button type="button" className="ghost" aria-expanded={open} onClick={() => setOpen((o) => !o)}>View settings</button>
      {open && (
        <form className="inline-form" aria-label="View settings" onSubmit={(e) => { e.preventDefault(); void act.run(async () => { await patch(`/views/${view.id}`, { name }); await refresh(); }); }}>
          <label>View name<input value={name} onChange={(e) => setName(e.target.value)} /></label>
          <button type="submit">Rename view</button>
          <label>
            Kind of view
            <select value={view.kind} onChange={(e) => void act.run(async () => { await patch(`/views/${view.id}`, { kind: e.target.value }); await refresh(); })}>
              <option value="board">Board</option>
              <option value="list">List</option>
              <option value="roadmap">Roadmap</option>
            </select>
          </label>
          <label>
            Grouped by
            <select value={view.groupById ?? ''} onChange={(e) => void act.run(async () => { await patch(`/views/${view.id}`, { groupById: e.target.value || null }); await refresh(); })}>
              <option value="">nothing</option>
              {groupableProperties(board, 'board').map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
            </select>
          </label>
          <MoveButtons ids={board.views.map((v) => v.id)} id={view.id} label={`view ${view.name}`} path={`/views/${view.id}`} onSaved={async () => { await refresh(); }} onError={act.setError} words={['left', 'right']} />
          {admin && !view.isDefault && (
            <button type="button" className="danger" onClick={() => void act.run(async () => { await del(`/views/${view.id}`); setQuery({ view: null }); await refresh(); })}>Delete view</button>
          )}
          <ErrorLine error={act.error} />
        </form>
      )}
      {open && admin && (
        <details className="view-cards-box">
          <summary>Cards in this view</summary>
          <ViewCardRows board={board} view={view} />
        </details>
      )}
    </>
  );
}
