import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { del, get, patch, post, put } from '../api/client';
import { PROPERTY_TYPES, type Board, type CardRow, type InviteAdded, type Member, type NewAgent, type NewToken, type Project, type Property, type PropertyType, type ResetLink, type Rules, type Token, type User } from '../api/types';
import { ErrorLine, Once, useAction } from '../ui/Field';
import { Avatar } from '../ui/Avatar';
import { navigate } from '../router';
import { WebhooksSection } from './WebhooksSection';
import { AgentEdit } from './AgentEdit';
import { ImportSection } from './ImportSection';
import { BudgetField, useListedProject } from './BudgetField';
import { ModeSelect } from '../board/CardRows';
import { MoveButtons, OptionNote, TypeDefaults, WhenRule } from './PropertyParts';

export function SettingsPage({ board, me }: { board: Board; me: User }) {
  const admin = board.project.role === 'owner' || board.project.role === 'admin';
  return (
    <div className="page settings">
      <ProjectSettings board={board} admin={admin} />
      <MembersSection board={board} me={me} admin={admin} />
      {admin && <AgentsSection board={board} />}
      <PropertiesSection board={board} admin={admin} />
      <RulesSection board={board} admin={admin} />
      {admin && <WebhooksSection board={board} />}
      {admin && (
        <section aria-labelledby="export-h">
          <h2 id="export-h">Export</h2>
          <p>The whole project as one JSON file: every task (archived and deleted too) with its checklist, comments, blockers and parts, every run, the activity feed and the files’ details. No token, secret or password is in it.</p>
          {/* A plain link: the session cookie goes with it and the browser saves the file. */}
          <a className="button" href={`/api/projects/${board.project.id}/export`} download>
            Export the project
          </a>
        </section>
      )}
      {admin && <ImportSection board={board} />}
    </div>
  );
}

function useRefresh(pid: string) {
  const qc = useQueryClient();
  return async () => {
    await qc.invalidateQueries({ queryKey: ['board', pid] });
    await qc.invalidateQueries({ queryKey: ['project-extra', pid] });
    await qc.invalidateQueries({ queryKey: ['projects'] });
  };
}

function ProjectSettings({ board, admin }: { board: Board; admin: boolean }) {
  const p = board.project;
  // Releases and sprints are not in the board read's project: the project list has them.
  const listed = useListedProject(p.id);
  const refresh = useRefresh(p.id);
  const [name, setName] = useState(p.name);
  const [key, setKey] = useState(p.key);
  const act = useAction();
  const save = (body: Partial<Project>) => act.run(async () => { await patch(`/projects/${p.id}`, body); await refresh(); });
  return (
    <section aria-labelledby="proj-h">
      <h2 id="proj-h">Project</h2>
      <form className="inline-form" onSubmit={(e) => { e.preventDefault(); void save({ name, key }); }}>
        <label>Name<input value={name} disabled={!admin} onChange={(e) => setName(e.target.value)} /></label>
        <label>Key<input value={key} disabled={!admin} onChange={(e) => setKey(e.target.value.toUpperCase())} /></label>
        {admin && <button type="submit">Save</button>}
      </form>
      {admin && (
        <div className="inline-form">
          <label className="check"><input type="checkbox" checked={!!listed?.releases} onChange={(e) => void save({ releases: e.target.checked })} /> Releases</label>
          <label className="check"><input type="checkbox" checked={!!listed?.sprints} onChange={(e) => void save({ sprints: e.target.checked })} /> Sprints</label>
        </div>
      )}
      <ErrorLine error={act.error} />
      <BudgetField board={board} admin={admin} />
      {p.role === 'owner' && (
        <button
          type="button"
          className="danger"
          onClick={() => {
            if (!window.confirm(`Delete the project ${p.name} and everything in it?`)) return;
            void act.run(async () => { await del(`/projects/${p.id}`); navigate('/'); });
          }}
        >
          Delete project
        </button>
      )}
    </section>
  );
}

function MembersSection({ board, me, admin }: { board: Board; me: User; admin: boolean }) {
  const pid = board.project.id;
  const refresh = useRefresh(pid);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  const [reset, setReset] = useState<{ name: string; url: string | null; token: string } | null>(null);
  const [invited, setInvited] = useState<InviteAdded | null>(null);
  const act = useAction();
  const people = board.members.filter((m) => m.kind === 'human');
  return (
    <section aria-labelledby="members-h">
      <h2 id="members-h">People</h2>
      <ul className="rows">
        {people.map((m) => (
          <li key={m.id} className="row">
            <Avatar person={m} /> <span>{m.name} <span className="muted">{m.email}</span></span>
            {admin && m.role !== 'owner' ? (
              <select aria-label={`Role of ${m.name}`} value={m.role} onChange={(e) => void act.run(async () => { await patch(`/projects/${pid}/members/${m.id}`, { role: e.target.value }); await refresh(); })}>
                <option value="member">member</option>
                <option value="admin">admin</option>
              </select>
            ) : <span className="muted">{m.role}</span>}
            {admin && m.role !== 'owner' && m.id !== me.id && (
              <>
                <button type="button" onClick={() => void act.run(async () => { const a = await post<ResetLink>(`/projects/${pid}/members/${m.id}/reset`); setReset({ name: m.name, url: a.url, token: a.token }); })}>Reset link</button>
                <button type="button" className="danger" onClick={() => void act.run(async () => { await del(`/projects/${pid}/members/${m.id}`); await refresh(); })}>Remove {m.name}</button>
              </>
            )}
            {board.project.role === 'owner' && m.id !== me.id && (
              <button
                type="button"
                onClick={() => {
                  if (!window.confirm(`Hand ${board.project.name} over to ${m.name}? You become an admin.`)) return;
                  void act.run(async () => { await post(`/projects/${pid}/hand-over`, { userId: m.id }); await refresh(); });
                }}
              >
                Hand over to {m.name}
              </button>
            )}
            {m.id === me.id && m.role !== 'owner' && (
              <button type="button" className="danger" onClick={() => void act.run(async () => { await del(`/projects/${pid}/members/${m.id}`); navigate('/'); })}>Leave project</button>
            )}
          </li>
        ))}
        {board.invites.map((i) => (
          <li key={i.email} className="row">
            <span>{i.email} <span className="muted">invited</span></span>
            {admin && <button type="button" onClick={() => void act.run(async () => { await del(`/projects/${pid}/invites/${encodeURIComponent(i.email)}`); await refresh(); })}>Withdraw invite</button>}
          </li>
        ))}
      </ul>
      {reset && <Once label={`A reset link for ${reset.name}.`} secret={reset.url ?? reset.token} />}
      {invited && <InviteSent invite={invited} />}
      {admin && (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            setInvited(null);
            void act.run(async () => {
              const added = await post<{ invite?: InviteAdded }>(`/projects/${pid}/members`, { email, role });
              setInvited(added.invite ?? null);
              setEmail('');
              await refresh();
            });
          }}
        >
          <label>Add by email<input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} /></label>
          <label>Role<select value={role} onChange={(e) => setRole(e.target.value)}><option value="member">member</option><option value="admin">admin</option></select></label>
          <button type="submit">Add person</button>
        </form>
      )}
      <ErrorLine error={act.error} />
    </section>
  );
}

/** What became of an invite: mailed, or the sign-up link to hand over (no mail, or the relay did not take it). */
function InviteSent({ invite }: { invite: InviteAdded }) {
  if (invite.mailed) {
    return <p className="notice" role="status" data-invite="mailed">Invited {invite.email}: mailed a sign-up link.</p>;
  }
  return (
    <div className="once" role="status" data-invite="link">
      {invite.signupUrl ? (
        <>
          <p>Invited {invite.email}, but no mail went out. Send them this link to sign up:</p>
          <code className="secret">{invite.signupUrl}</code>
          <button type="button" onClick={() => void navigator.clipboard?.writeText(invite.signupUrl!)}>Copy link</button>
        </>
      ) : (
        <p>Invited {invite.email}, but no mail went out. Ask them to sign up on this board with that email.</p>
      )}
    </div>
  );
}

function AgentsSection({ board }: { board: Board }) {
  const pid = board.project.id;
  const refresh = useRefresh(pid);
  const tokens = useQuery({ queryKey: ['project-extra', pid, 'tokens'], queryFn: () => get<{ tokens: Token[] }>(`/projects/${pid}/tokens`) });
  const [name, setName] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const act = useAction();
  const agents = board.members.filter((m) => m.kind === 'agent');
  const again = async () => { await refresh(); await tokens.refetch(); };
  return (
    <section aria-labelledby="agents-h">
      <h2 id="agents-h">Agents and tokens</h2>
      {shown && <Once label="The agent's token." secret={shown} />}
      <ul className="rows">
        {agents.map((a: Member) => (
          <li key={a.id} className="row agent-row">
            <Avatar person={a} /> <strong>{a.name}</strong>
            <AgentEdit projectId={pid} agent={a} onSaved={again} />
            <button type="button" onClick={() => void act.run(async () => { const t = await post<NewToken>(`/projects/${pid}/agents/${a.id}/tokens`); setShown(t.token); await again(); })}>New token</button>
            <button type="button" className="danger" onClick={() => void act.run(async () => { await del(`/projects/${pid}/agents/${a.id}`); await again(); })}>Remove {a.name}</button>
            <ul className="tokens">
              {tokens.data?.tokens.filter((t) => t.agentId === a.id).map((t) => (
                <li key={t.id}>
                  <code>{t.prefix}…</code> <span className="muted">made {new Date(t.createdAt).toLocaleDateString()}{t.lastUsedAt ? `, used ${new Date(t.lastUsedAt).toLocaleString()}` : ', never used'}</span>
                  <button type="button" onClick={() => void act.run(async () => { await del(`/projects/${pid}/tokens/${t.id}`); await again(); })}>Revoke</button>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <form className="inline-form" onSubmit={(e) => { e.preventDefault(); void act.run(async () => { const a = await post<NewAgent>(`/projects/${pid}/agents`, { name }); setShown(a.token); setName(''); await again(); }); }}>
        <label>New agent name<input required value={name} onChange={(e) => setName(e.target.value)} /></label>
        <button type="submit">Add agent</button>
      </form>
      <ErrorLine error={act.error} />
    </section>
  );
}

function PropertiesSection({ board, admin }: { board: Board; admin: boolean }) {
  const pid = board.project.id;
  const refresh = useRefresh(pid);
  const [name, setName] = useState('');
  const [type, setType] = useState<PropertyType>('select');
  const [options, setOptions] = useState('');
  const act = useAction();
  return (
    <section aria-labelledby="props-settings-h">
      <h2 id="props-settings-h">Properties</h2>
      <ul className="rows">
        {board.properties.map((p) => <PropertyRow key={p.id} prop={p} board={board} admin={admin} refresh={refresh} />)}
      </ul>
      <form
        className="inline-form"
        aria-label="New property"
        onSubmit={(e) => {
          e.preventDefault();
          void act.run(async () => {
            const body: Record<string, unknown> = { name, type };
            if (['select', 'multi_select', 'iteration'].includes(type)) body.options = options.split(',').map((s) => s.trim()).filter(Boolean);
            await post(`/projects/${pid}/properties`, body);
            setName('');
            setOptions('');
            await refresh();
          });
        }}
      >
        <label>Property name<input required maxLength={40} value={name} onChange={(e) => setName(e.target.value)} /></label>
        <label>Type<select value={type} onChange={(e) => setType(e.target.value as PropertyType)}>{PROPERTY_TYPES.map((t) => <option key={t} value={t}>{t.replace('_', ' ')}</option>)}</select></label>
        {['select', 'multi_select', 'iteration'].includes(type) && <label>Options (comma separated)<input value={options} onChange={(e) => setOptions(e.target.value)} /></label>}
        <button type="submit">Add property</button>
      </form>
      <ErrorLine error={act.error} />
    </section>
  );
}

function PropertyRow({ prop, board, admin, refresh }: { prop: Property; board: Board; admin: boolean; refresh: () => Promise<void> }) {
  const [name, setName] = useState(prop.name);
  const [option, setOption] = useState('');
  const act = useAction();
  // A choice not read back yet wins over the last read, so a second choice builds on the first.
  const saved = board.cardView?.rows?.[prop.id];
  const [chosen, setChosen] = useState<CardRow | null>(null);
  useEffect(() => setChosen(null), [saved]);
  const row = chosen ?? saved;
  const place = row?.place ?? 'footer';
  const dated = prop.type === 'iteration' || (prop.type === 'select' && !!prop.config?.dated);
  return (
    <li className="row prop-settings">
      <form className="inline-form" onSubmit={(e) => { e.preventDefault(); void act.run(async () => { await patch(`/properties/${prop.id}`, { name }); await refresh(); }); }}>
        <label>Name of {prop.name}<input value={name} maxLength={40} onChange={(e) => setName(e.target.value)} /></label>
        <span className="muted">{prop.type.replace('_', ' ')}</span>
        <button type="submit">Rename</button>
        <MoveButtons ids={board.properties.map((p) => p.id)} id={prop.id} label={prop.name} path={`/properties/${prop.id}`} onSaved={refresh} onError={act.setError} />
        <label>
          On cards
          <select
            value={place}
            disabled={!admin}
            onChange={(e) =>
              void act.run(async () => {
                const next = e.target.value as CardRow['place'];
                setChosen({ place: next, mode: row?.mode ?? 'text' });
                if (next === 'off' || place === 'off') await patch(`/properties/${prop.id}`, { showOnCard: next !== 'off' });
                if (next !== 'off') await patch(`/projects/${board.project.id}/card-view`, { rows: { [prop.id]: { place: next, mode: row?.mode ?? 'text' } } });
                await refresh();
              })
            }
          >
            <option value="headerL">header, left</option>
            <option value="headerR">header, right</option>
            <option value="title">beside the title</option>
            <option value="footer">footer</option>
            <option value="off">not shown</option>
          </select>
        </label>
        <ModeSelect
          label={`${prop.name} drawn as`}
          value={row?.mode ?? 'text'}
          disabled={!admin || place === 'off'}
          onChange={(mode) => void act.run(async () => { setChosen({ place, mode }); await patch(`/projects/${board.project.id}/card-view`, { rows: { [prop.id]: { place, mode } } }); await refresh(); })}
        />
        {admin && prop.type === 'select' && (
          <label className="check"><input type="checkbox" checked={!!prop.config?.dated} onChange={(e) => void act.run(async () => { await patch(`/properties/${prop.id}`, { dated: e.target.checked }); await refresh(); })} /> Dated (releases)</label>
        )}
        {admin && <button type="button" className="danger" onClick={() => void act.run(async () => { await del(`/properties/${prop.id}`); await refresh(); })}>Delete {prop.name}</button>}
      </form>
      <WhenRule prop={prop} board={board} onSaved={refresh} onError={act.setError} />
      {admin && <TypeDefaults prop={prop} board={board} onSaved={refresh} onError={act.setError} />}
      {['select', 'multi_select', 'iteration'].includes(prop.type) && (
        <div className="options">
          <ul>
            {prop.options.map((o) => (
              <li key={o.id}>
                <input type="color" aria-label={`Colour of ${o.name}`} value={o.color} onChange={(e) => void act.run(async () => { await patch(`/options/${o.id}`, { color: e.target.value }); await refresh(); })} />
                <OptionName id={o.id} name={o.name} onSaved={refresh} onError={act.setError} />
                <MoveButtons ids={prop.options.map((x) => x.id)} id={o.id} label={`option ${o.name}`} path={`/options/${o.id}`} onSaved={refresh} onError={act.setError} />
                {dated && (
                  <>
                    <label className="inline-label">starts<input type="date" aria-label={`Start of ${o.name}`} value={o.startsOn ?? ''} onChange={(e) => void act.run(async () => { await patch(`/options/${o.id}`, { startsOn: e.target.value || null }); await refresh(); })} /></label>
                    <label className="inline-label">target<input type="date" aria-label={`Target of ${o.name}`} value={o.targetOn ?? ''} onChange={(e) => void act.run(async () => { await patch(`/options/${o.id}`, { targetOn: e.target.value || null }); await refresh(); })} /></label>
                    <OptionNote option={o} onSaved={refresh} onError={act.setError} />
                  </>
                )}
                {o.shippedAt && <span className="muted"> shipped {o.shippedAt}</span>}
                {o.shippedAt && admin && (
                  <button type="button" onClick={() => void act.run(async () => { await patch(`/options/${o.id}`, { shippedAt: null }); await refresh(); })}>
                    Take back the ship of {o.name}
                  </button>
                )}
                {admin && <button type="button" className="icon" aria-label={`Delete option ${o.name}`} onClick={() => void act.run(async () => { await del(`/options/${o.id}`); await refresh(); })}>×</button>}
              </li>
            ))}
          </ul>
          <form className="inline-form" onSubmit={(e) => { e.preventDefault(); void act.run(async () => { await post(`/properties/${prop.id}/options`, { name: option }); setOption(''); await refresh(); }); }}>
            <label>New option of {prop.name}<input required maxLength={40} value={option} onChange={(e) => setOption(e.target.value)} /></label>
            <button type="submit">Add option</button>
          </form>
        </div>
      )}
      <ErrorLine error={act.error} />
    </li>
  );
}

function RulesSection({ board, admin }: { board: Board; admin: boolean }) {
  const pid = board.project.id;
  const rules = useQuery({ queryKey: ['project-extra', pid, 'rules'], queryFn: () => get<{ rules: Rules }>(`/projects/${pid}/rules`) });
  const [text, setText] = useState<string | null>(null);
  const act = useAction();
  const value = text ?? rules.data?.rules.text ?? '';
  return (
    <section aria-labelledby="rules-h">
      <h2 id="rules-h">Rules for agents</h2>
      <form onSubmit={(e) => { e.preventDefault(); void act.run(async () => { await put(`/projects/${pid}/rules`, { text: value }); setText(null); await rules.refetch(); }); }}>
        <label htmlFor="rules-text">Project rules (markdown)</label>
        <textarea id="rules-text" rows={5} maxLength={20000} value={value} readOnly={!admin} onChange={(e) => setText(e.target.value)} />
        {admin && <button type="submit">Save rules</button>}
      </form>
      <ErrorLine error={act.error ?? rules.error?.message ?? null} />
    </section>
  );
}

function OptionName({ id, name, onSaved, onError }: { id: string; name: string; onSaved: () => Promise<void>; onError: (e: string | null) => void }) {
  const [draft, setDraft] = useState(name);
  const save = async () => {
    if (draft.trim() === name || !draft.trim()) return setDraft(name);
    try {
      await patch(`/options/${id}`, { name: draft });
      onError(null);
      await onSaved();
    } catch (e) {
      onError((e as Error).message);
      setDraft(name);
    }
  };
  return (
    <input
      className="option-name"
      aria-label={`Name of option ${name}`}
      value={draft}
      maxLength={40}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={() => void save()}
      onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); void save(); } }}
    />
  );
}
