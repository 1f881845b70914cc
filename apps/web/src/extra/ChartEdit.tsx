import { useState } from 'react';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, patch } from '../api/client';
import type { Board, Chart, Project } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';

/** Change a chart after it is made: its name, its projects and (a flow chart's) property. */
export function ChartEdit({ chart }: { chart: Chart }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(chart.name);
  const [projectIds, setProjectIds] = useState<string[]>(chart.projectIds);
  const [propertyId, setPropertyId] = useState(chart.propertyId ?? '');
  const projects = useQuery({ queryKey: ['projects'], queryFn: async () => (await get<{ projects: Project[] }>('/projects')).projects, enabled: open });
  const boards = useQueries({
    queries: (chart.kind === 'flow' && open ? projectIds : []).map((id) => ({ queryKey: ['board', id], queryFn: () => get<Board>(`/projects/${id}/board`) })),
  });
  const selects = boards.flatMap(({ data }) => data?.properties.filter((p) => p.type === 'select').map((p) => ({ ...p, projectName: data.project.name })) ?? []);
  const act = useAction();
  const start = () => { setName(chart.name); setProjectIds(chart.projectIds); setPropertyId(chart.propertyId ?? ''); setOpen(!open); };
  return (
    <>
      <button type="button" aria-expanded={open} onClick={start}>Edit chart<span className="sr-only"> {chart.name}</span></button>
      {open && (
        <form
          className="inline-form"
          aria-label={`Edit chart ${chart.name}`}
          onSubmit={(e) => {
            e.preventDefault();
            void act.run(async () => {
              await patch(`/charts/${chart.id}`, { name, projectIds, ...(chart.kind === 'flow' ? { propertyId: propertyId || null } : {}) });
              setOpen(false);
              await qc.invalidateQueries({ queryKey: ['charts'] });
              await qc.invalidateQueries({ queryKey: ['chart', chart.id] });
            });
          }}
        >
          <label>Name of the chart<input required value={name} onChange={(e) => setName(e.target.value)} /></label>
          <fieldset className="choice-list">
            <legend>Projects in the chart</legend>
            {projects.data?.map((p) => (
              <label key={p.id} className="check">
                <input type="checkbox" checked={projectIds.includes(p.id)} onChange={(e) => setProjectIds((ids) => (e.target.checked ? [...ids, p.id] : ids.filter((x) => x !== p.id)))} />
                {p.name}
              </label>
            ))}
          </fieldset>
          {chart.kind === 'flow' && (
            <label>
              Property of the chart
              <select value={propertyId} onChange={(e) => setPropertyId(e.target.value)}>
                <option value="">Choose</option>
                {selects.map((p) => <option key={p.id} value={p.id}>{p.name} ({p.projectName})</option>)}
              </select>
            </label>
          )}
          <button type="submit">Save chart</button>
          <ErrorLine error={act.error} />
        </form>
      )}
    </>
  );
}
