import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { del, get, post } from '../api/client';
import type { Chart, ChartData, ChartKind, Project, Board } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';
import { ChartEdit } from './ChartEdit';

const PALETTE = ['#4b8fbe', '#4f8a5b', '#d1913a', '#c2557a', '#6d5bd0', '#3fb0c8', '#e0574d', '#7a8a2f', '#8b8f98'];

/** A person's charts over their projects, drawn as SVG. */
export function ChartsPage() {
  const qc = useQueryClient();
  const charts = useQuery({ queryKey: ['charts'], queryFn: async () => (await get<{ charts: Chart[] }>('/charts')).charts, retry: false });
  const projects = useQuery({ queryKey: ['projects'], queryFn: async () => (await get<{ projects: Project[] }>('/projects')).projects });
  const [name, setName] = useState('');
  const [kind, setKind] = useState<ChartKind>('burnup');
  const [projectId, setProjectId] = useState('');
  const [propertyId, setPropertyId] = useState('');
  const pid = projectId || projects.data?.[0]?.id || '';
  const board = useQuery({ queryKey: ['board', pid], queryFn: () => get<Board>(`/projects/${pid}/board`), enabled: kind === 'flow' && !!pid });
  const act = useAction();
  return (
    <div className="page">
      <h1>Charts</h1>
      <ErrorLine error={charts.error?.message ?? act.error} />
      <form
        className="inline-form"
        aria-label="New chart"
        onSubmit={(e) => {
          e.preventDefault();
          void act.run(async () => {
            await post('/charts', { name, kind, projectIds: [pid], ...(kind === 'flow' ? { propertyId } : {}) });
            setName('');
            await qc.invalidateQueries({ queryKey: ['charts'] });
          });
        }}
      >
        <label>Chart name<input required value={name} onChange={(e) => setName(e.target.value)} /></label>
        <label>Kind<select value={kind} onChange={(e) => setKind(e.target.value as ChartKind)}><option value="burnup">Burn-up</option><option value="flow">Cumulative flow</option><option value="throughput">Throughput</option></select></label>
        <label>Project<select value={pid} onChange={(e) => setProjectId(e.target.value)}>{projects.data?.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}</select></label>
        {kind === 'flow' && (
          <label>Property<select value={propertyId} onChange={(e) => setPropertyId(e.target.value)}><option value="">Choose</option>{board.data?.properties.filter((p) => p.type === 'select').map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}</select></label>
        )}
        <button type="submit" className="primary">Make chart</button>
      </form>
      {charts.data?.map((c) => (
        <ChartCard key={c.id} chart={c} onDelete={() => void act.run(async () => { await del(`/charts/${c.id}`); await qc.invalidateQueries({ queryKey: ['charts'] }); })} />
      ))}
    </div>
  );
}

function ChartCard({ chart, onDelete }: { chart: Chart; onDelete: () => void }) {
  const data = useQuery({ queryKey: ['chart', chart.id], queryFn: () => get<ChartData>(`/charts/${chart.id}/data`) });
  return (
    <article className="chart-card" aria-labelledby={`chart-${chart.id}`}>
      <h2 id={`chart-${chart.id}`}>{chart.name} <span className="muted">{chart.kind}</span></h2>
      {data.data ? <SvgChart data={data.data} /> : <ErrorLine error={data.error?.message ?? null} />}
      <ChartEdit chart={chart} />
      <button type="button" className="danger" onClick={onDelete}>Delete chart</button>
    </article>
  );
}

/**
 * A flow series draws in its option's colour (the chart reads like the board); the others, and the
 * "No …" series, take the palette's colours that no option of the chart uses.
 */
export function seriesColours(series: ChartData['series']): string[] {
  const taken = new Set(series.map((s) => s.color?.toLowerCase()).filter(Boolean));
  const spare = PALETTE.filter((c) => !taken.has(c.toLowerCase()));
  let next = 0;
  return series.map((s) => s.color ?? (spare.length ? spare[next++ % spare.length] : PALETTE[next++ % PALETTE.length]));
}

export function SvgChart({ data }: { data: ChartData }) {
  const W = 640, H = 220, P = 28;
  const stacked = data.chart.kind === 'flow';
  const n = data.days.length;
  const totals = data.days.map((_, i) => (stacked ? data.series.reduce((s, x) => s + (x.values[i] ?? 0), 0) : Math.max(0, ...data.series.map((x) => x.values[i] ?? 0))));
  const max = Math.max(1, ...totals);
  const x = (i: number) => P + (n <= 1 ? 0 : (i / (n - 1)) * (W - 2 * P));
  const y = (v: number) => H - P - (v / max) * (H - 2 * P);
  let base = data.days.map(() => 0);
  const colours = seriesColours(data.series);
  const shapes = data.series.map((s, k) => {
    const colour = colours[k];
    if (stacked) {
      const top = base.map((b, i) => b + (s.values[i] ?? 0));
      const d = `M${top.map((v, i) => `${x(i)},${y(v)}`).join('L')}L${[...base].reverse().map((v, j) => `${x(n - 1 - j)},${y(v)}`).join('L')}Z`;
      base = top;
      return <path key={s.key} d={d} fill={colour} opacity={0.8}><title>{s.name}</title></path>;
    }
    if (data.chart.kind === 'throughput') {
      const w = Math.max(2, (W - 2 * P) / Math.max(1, n) - 2);
      return <g key={s.key} fill={colour}>{s.values.map((v, i) => <rect key={i} x={x(i) - w / 2} y={y(v)} width={w} height={H - P - y(v)}><title>{`${data.days[i]}: ${v}`}</title></rect>)}</g>;
    }
    return <polyline key={s.key} fill="none" stroke={colour} strokeWidth={2} points={s.values.map((v, i) => `${x(i)},${y(v)}`).join(' ')}><title>{s.name}</title></polyline>;
  });
  const summary = data.series.map((s) => `${s.name} ${s.values[s.values.length - 1] ?? 0}`).join(', ');
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${data.chart.name} from ${data.from} to ${data.to}: ${summary}`}>
        <line x1={P} y1={H - P} x2={W - P} y2={H - P} className="axis" />
        <line x1={P} y1={P} x2={P} y2={H - P} className="axis" />
        <text x={4} y={P} className="tick">{max}</text>
        <text x={P} y={H - 8} className="tick">{data.from}</text>
        <text x={W - P} y={H - 8} className="tick" textAnchor="end">{data.to}</text>
        {shapes}
      </svg>
      <figcaption className="legend">
        {data.series.map((s, k) => <span key={s.key}><span className="chip-dot" style={{ background: colours[k] }} aria-hidden="true" /> {s.name}</span>)}
      </figcaption>
    </figure>
  );
}
