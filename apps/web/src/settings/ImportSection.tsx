import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { post } from '../api/client';
import type { Board } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';

interface Preview {
  /** Which document the service read: a Trello board export, or a project export of this service. */
  kind: 'trello' | 'export';
  properties?: number; views?: number; runs?: number; deleted?: number;
  tasks: number; archived: number; lists: number; closedLists: number; labels: number; checklistItems: number; comments: number;
  skipped: { sourceId: string; reason: string }[];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Import a Trello board export, or a project export into a project without tasks (owner and
 * admins): pick either file, read the preview (which says what the service read it as), then import.
 */
export function ImportSection({ board }: { board: Board }) {
  const pid = board.project.id;
  const qc = useQueryClient();
  const [file, setFile] = useState<{ name: string; body: unknown } | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [done, setDone] = useState<{ imported: unknown; skipped: unknown } | null>(null);
  const act = useAction();
  const pick = (f: File | undefined) => {
    setPreview(null);
    setDone(null);
    setFile(null);
    if (!f) return;
    void act.run(async () => {
      let body: unknown;
      try {
        body = JSON.parse(await f.text());
      } catch {
        // Not JSON at all: the service would say the same of any body that is not an export.
        throw new Error('That is not a Trello board export.');
      }
      const a = await post<{ preview: Preview }>(`/projects/${pid}/import/preview`, body);
      setFile({ name: f.name, body });
      setPreview(a.preview);
    });
  };
  const run = (body: unknown) =>
    void act.run(async () => {
      const a = await post<{ imported: unknown; skipped: unknown }>(`/projects/${pid}/import`, body);
      setDone(a);
      setPreview(null);
      await qc.invalidateQueries({ queryKey: ['board', pid] });
    });
  const count = (v: unknown) => (Array.isArray(v) ? v.length : Number(v ?? 0));
  return (
    <section aria-labelledby="import-h">
      <h2 id="import-h">Import from Trello or a project export</h2>
      <label>
        Trello board export (JSON) or project export
        <input type="file" accept=".json,application/json" onChange={(e) => pick(e.target.files?.[0])} />
      </label>
      {preview && file && preview.kind === 'export' && (
        <div className="import-preview" role="status" aria-label="Import preview">
          <p>
            {file.name} is a project export: {plural(preview.tasks, 'task')}, {preview.archived} archived and {preview.deleted ?? 0} in the bin, with {plural(preview.checklistItems, 'checklist item')}, {plural(preview.comments, 'comment')} and {plural(preview.runs ?? 0, 'run')}.
          </p>
          <ul className="import-explained">
            <li>This project’s properties, views, card layout and rules are replaced by the export’s {preview.properties ?? 0} {preview.properties === 1 ? 'property' : 'properties'} and {plural(preview.views ?? 0, 'view')}.</li>
            <li>People are matched by email among this project’s members; a comment by anyone else is kept with their name, and their other traces are left out.</li>
            <li>Open runs come in closed as lost; tasks in the bin stay there with the time they had left.</li>
          </ul>
          <button type="button" className="primary" disabled={act.busy} onClick={() => run(file.body)}>Import {plural(preview.tasks + preview.archived + (preview.deleted ?? 0), 'task')}</button>
        </div>
      )}
      {preview && file && preview.kind !== 'export' && (
        <div className="import-preview" role="status" aria-label="Import preview">
          <p>
            {file.name} holds {plural(preview.tasks, 'task')} and {preview.archived} archived, from {plural(preview.lists, 'list')} and {plural(preview.labels, 'label')}, with {plural(preview.checklistItems, 'checklist item')} and {plural(preview.comments, 'comment')}.
          </p>
          <ul className="import-explained">
            <li>Archived: the cards closed on Trello{preview.closedLists > 0 ? `, and every card of ${plural(preview.closedLists, 'closed list')}` : ''}. They are in Archive and bin, and can be put back.</li>
            <li>Each open list the cards use is a Status column, in Trello’s order: a list named like a column you have (case and spaces aside) goes into it; another becomes a new column.</li>
            {preview.closedLists > 0 && <li>{plural(preview.closedLists, 'closed list')} {preview.closedLists === 1 ? 'becomes a Status option' : 'become Status options'} too, so {preview.closedLists === 1 ? 'its cards keep their list' : 'their cards keep their lists'} when put back.</li>}
            <li>Labels become options of Labels; due dates fill Due.</li>
          </ul>
          {preview.skipped.length > 0 && (
            <details>
              <summary>{preview.skipped.length} card{preview.skipped.length === 1 ? '' : 's'} will be skipped</summary>
              <ul>{preview.skipped.map((s) => <li key={s.sourceId}><code>{s.sourceId}</code> {s.reason}</li>)}</ul>
            </details>
          )}
          <button type="button" className="primary" disabled={act.busy} onClick={() => run(file.body)}>Import {preview.tasks + preview.archived} tasks</button>
        </div>
      )}
      {done && <p role="status">Imported {count(done.imported)} task{count(done.imported) === 1 ? '' : 's'}; skipped {count(done.skipped)}.</p>}
      <ErrorLine error={act.error} />
    </section>
  );
}
