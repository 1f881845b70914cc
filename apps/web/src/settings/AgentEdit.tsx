import { useState } from 'react';
import { patch } from '../api/client';
import { AVATAR_COLOURS, type Member } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';
import { Avatar } from '../ui/Avatar';

/** Rename an agent, pick its colour and face (PATCH agent; owner and admins). */
export function AgentEdit({ projectId, agent, onSaved }: { projectId: string; agent: Member; onSaved: () => Promise<void> }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(agent.name);
  const [color, setColor] = useState(agent.color);
  const [emoji, setEmoji] = useState(agent.emoji ?? '');
  const act = useAction();
  const start = () => { setName(agent.name); setColor(agent.color); setEmoji(agent.emoji ?? ''); setOpen(!open); };
  return (
    <>
      <button type="button" aria-expanded={open} onClick={start}>Edit {agent.name}</button>
      {open && (
        <form
          className="inline-form agent-edit"
          aria-label={`Edit agent ${agent.name}`}
          onSubmit={(e) => {
            e.preventDefault();
            void act.run(async () => {
              await patch(`/projects/${projectId}/agents/${agent.id}`, { name, color, emoji: emoji.trim() === '' ? null : emoji.trim() });
              setOpen(false);
              await onSaved();
            });
          }}
        >
          <Avatar person={{ ...agent, name, color, emoji: emoji || null }} size={32} />
          <label>Agent name<input required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} /></label>
          <fieldset className="swatches">
            <legend>Colour of the agent</legend>
            {AVATAR_COLOURS.map((c) => (
              <label key={c} className="swatch" style={{ background: c }}>
                <input type="radio" name={`colour-${agent.id}`} value={c} checked={color === c} onChange={() => setColor(c)} aria-label={`Colour ${c}`} />
              </label>
            ))}
          </fieldset>
          <label>Agent face (one emoji, empty for initials)<input value={emoji} onChange={(e) => setEmoji(e.target.value)} /></label>
          <button type="submit">Save agent</button>
          <ErrorLine error={act.error} />
        </form>
      )}
    </>
  );
}
