import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { patch } from '../api/client';
import type { Board, CardRow, View } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';
import { cardViewOf } from './Card';

export const PLACES: [CardRow['place'], string][] = [['headerL', 'header, left'], ['headerR', 'header, right'], ['title', 'beside the title'], ['footer', 'footer'], ['off', 'not shown']];
export const MODES: [CardRow['mode'], string][] = [['text', 'text'], ['colour', 'colour bar'], ['fixed', 'fixed colour'], ['avatar', 'avatar']];

/** How a property is drawn on a card: a select of the four modes. */
export function ModeSelect({ label, value, disabled, onChange }: { label: string; value: CardRow['mode']; disabled?: boolean; onChange: (m: CardRow['mode']) => void }) {
  return (
    <label>
      {label}
      <select value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as CardRow['mode'])}>
        {MODES.map(([m, text]) => <option key={m} value={m}>{text}</option>)}
      </select>
    </label>
  );
}

/** The cards of one view: place and mode of every property, or back to the project's (owner and admins). */
export function ViewCardRows({ board, view }: { board: Board; view: View }) {
  const qc = useQueryClient();
  const act = useAction();
  const cv = cardViewOf(board, view);
  // What this tab chose and the server has not sent back yet: a second choice made before the
  // board is read again builds on the first, not on the row the last read showed.
  const [chosen, setChosen] = useState<Record<string, CardRow>>({});
  useEffect(() => setChosen({}), [cv]);
  const save = (rows: Record<string, CardRow> | null) =>
    void act.run(async () => {
      setChosen((c) => (rows ? { ...c, ...rows } : {}));
      await patch(`/views/${view.id}/card-view`, { rows });
      await qc.invalidateQueries({ queryKey: ['board', board.project.id] });
    });
  return (
    <fieldset className="view-cards">
      <legend>Cards in {view.name}{view.cardView ? '' : ' (as the project’s)'}</legend>
      <ul className="rows">
        {board.properties.map((p) => {
          const row: CardRow = chosen[p.id] ?? { place: cv?.rows?.[p.id]?.place ?? 'footer', mode: cv?.rows?.[p.id]?.mode ?? 'text' };
          return (
            <li key={p.id} className="row">
              <label>
                {p.name} in {view.name}
                <select value={row.place} onChange={(e) => save({ [p.id]: { ...row, place: e.target.value as CardRow['place'] } })}>
                  {PLACES.map(([v, text]) => <option key={v} value={v}>{text}</option>)}
                </select>
              </label>
              <ModeSelect label={`${p.name} drawn as, in ${view.name}`} value={row.mode} disabled={row.place === 'off'} onChange={(mode) => save({ [p.id]: { ...row, mode } })} />
            </li>
          );
        })}
      </ul>
      {view.cardView && <button type="button" onClick={() => save(null)}>Use the project’s cards</button>}
      <ErrorLine error={act.error} />
    </fieldset>
  );
}
