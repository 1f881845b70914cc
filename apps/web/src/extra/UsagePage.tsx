import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { get } from '../api/client';
import type { Board, Usage } from '../api/types';
import { linkProps } from '../router';
import { Avatar } from '../ui/Avatar';
import { ErrorLine } from '../ui/Field';
import { formatCost, formatCount } from '../ui/money';
import { useDailyBudget } from '../settings/BudgetField';

const RANGES = [7, 30, 90];
const DAY_MS = 86_400_000;

/** Days are UTC days, as the service books them. */
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A project's agents: tokens and cost over the last days, per agent and per day, and today's share of the budget. */
export function UsagePage({ board }: { board: Board }) {
  const pid = board.project.id;
  const [days, setDays] = useState(30);
  const to = utcDay(Date.now());
  const from = utcDay(Date.now() - (days - 1) * DAY_MS);
  // Under project-extra so the stream's project changes (a new budget) read it again.
  const usage = useQuery({
    queryKey: ['project-extra', pid, 'usage', from, to],
    queryFn: () => get<Usage>(`/projects/${pid}/usage?from=${from}&to=${to}`),
    retry: false,
  });
  const u = usage.data;
  return (
    <div className="page usage">
      <h2>Agents’ usage</h2>
      <label>
        Range{' '}
        <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
          {RANGES.map((n) => <option key={n} value={n}>Last {n} days</option>)}
        </select>
      </label>
      <ErrorLine error={usage.error?.message ?? null} />
      {usage.isPending && <p role="status">Loading…</p>}
      {u && (
        <>
          <Budget board={board} usage={u} />
          <dl className="usage-totals" aria-label="Totals">
            <div><dt>Cost</dt><dd>{formatCost(u.total.costMicros)}</dd></div>
            <div><dt>Tokens in</dt><dd>{formatCount(u.total.inputTokens)}</dd></div>
            <div><dt>Tokens out</dt><dd>{formatCount(u.total.outputTokens)}</dd></div>
            <div><dt>Runs</dt><dd>{formatCount(u.total.runs)}</dd></div>
          </dl>
          {u.agents.length === 0 ? (
            <p className="muted">No agent reported usage from {u.from} to {u.to}.</p>
          ) : (
            <>
              <CostChart usage={u} />
              <AgentTable usage={u} />
              <DailyTable usage={u} />
            </>
          )}
        </>
      )}
    </div>
  );
}

/** Today's cost against the daily budget (the range always ends today). */
function Budget({ board, usage }: { board: Board; usage: Usage }) {
  const budget = useDailyBudget(board.project.id);
  const admin = board.project.role === 'owner' || board.project.role === 'admin';
  const last = usage.days.length - 1;
  const today = usage.agents.reduce((s, a) => s + (a.daily[last] ?? 0), 0);
  if (budget === undefined) return null;
  if (budget === null) {
    return (
      <p className="muted budget">
        No daily budget. Today’s cost so far: {formatCost(today)}.
        {admin && <> <a {...linkProps(`/p/${board.project.id}/settings`)}>Set one in Settings</a>.</>}
      </p>
    );
  }
  const share = Math.round((today / budget) * 100);
  return (
    <div className="budget">
      <p>
        Today: <strong>{formatCost(today)}</strong> of the daily budget {formatCost(budget)} used ({share}%).
        {today >= budget && <strong className="error"> The budget is spent: claims wait for tomorrow (UTC) and running agents were asked to pause.</strong>}
      </p>
      <progress className="budget-meter" max={budget} value={Math.min(today, budget)} aria-label={`Today’s cost: ${share}% of the daily budget`} />
    </div>
  );
}

/** Cost per day as bars stacked by agent, in each agent's colour; the tables below say the same in words. */
function CostChart({ usage }: { usage: Usage }) {
  const W = 640, H = 220, P = 36;
  const n = usage.days.length;
  const totals = usage.days.map((_, i) => usage.agents.reduce((s, a) => s + (a.daily[i] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const slot = (W - 2 * P) / Math.max(1, n);
  const w = Math.max(1, slot - (n > 40 ? 1 : 3));
  const h = (v: number) => (v / max) * (H - 2 * P);
  const base = usage.days.map(() => 0);
  const titleId = `usage-chart-${usage.from}-${usage.to}`;
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={titleId} aria-describedby="usage-agents">
        <title id={titleId}>{`Cost per day by agent, ${usage.from} to ${usage.to}; highest day ${formatCost(Math.max(0, ...totals))}`}</title>
        <line x1={P} y1={H - P} x2={W - P} y2={H - P} className="axis" />
        <line x1={P} y1={P} x2={P} y2={H - P} className="axis" />
        <text x={4} y={P - 6} className="tick">{formatCost(max)}</text>
        <text x={P} y={H - 10} className="tick">{usage.from}</text>
        <text x={W - P} y={H - 10} className="tick" textAnchor="end">{usage.to}</text>
        {usage.agents.map((a) => (
          <g key={a.agent.id} fill={a.agent.color} className="usage-bars">
            {a.daily.map((v, i) => {
              if (!v) return null;
              const y = H - P - h(base[i]) - h(v);
              base[i] += v;
              return (
                <rect key={i} x={P + i * slot + (slot - w) / 2} y={y} width={w} height={Math.max(1, h(v))}>
                  <title>{`${a.agent.name}, ${usage.days[i]}: ${formatCost(v)}`}</title>
                </rect>
              );
            })}
          </g>
        ))}
      </svg>
      <figcaption className="legend">
        {usage.agents.map((a) => <span key={a.agent.id}><span className="chip-dot" style={{ background: a.agent.color }} aria-hidden="true" /> {a.agent.name}</span>)}
      </figcaption>
    </figure>
  );
}

function AgentTable({ usage }: { usage: Usage }) {
  return (
    // Focusable, so a keyboard can scroll the table sideways on a narrow screen.
    <div className="table-scroll" role="region" aria-label="Usage by agent" tabIndex={0}>
      <table className="usage-table" id="usage-agents">
        <caption>By agent, {usage.from} to {usage.to}, highest cost first</caption>
        <thead>
          <tr><th scope="col">Agent</th><th scope="col">Tokens in</th><th scope="col">Tokens out</th><th scope="col">Cost</th><th scope="col">Runs</th></tr>
        </thead>
        <tbody>
          {usage.agents.map((a) => (
            <tr key={a.agent.id}>
              <th scope="row"><span className="usage-agent"><span aria-hidden="true"><Avatar person={a.agent} size={20} /></span><span className="usage-agent-name">{a.agent.name}</span></span></th>
              <td>{formatCount(a.inputTokens)}</td>
              <td>{formatCount(a.outputTokens)}</td>
              <td>{formatCost(a.costMicros)}</td>
              <td>{formatCount(a.runs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The chart's numbers day by day, for a screen reader or a closer look; only days with a cost. */
function DailyTable({ usage }: { usage: Usage }) {
  const rows = usage.days.map((d, i) => ({ d, costs: usage.agents.map((a) => a.daily[i] ?? 0) })).filter((r) => r.costs.some((c) => c > 0));
  return (
    <details>
      <summary>Cost per day ({rows.length} day{rows.length === 1 ? '' : 's'} with a cost)</summary>
      <div className="table-scroll" role="region" aria-label="Cost per day" tabIndex={0}>
        <table className="usage-table">
          <caption>Cost per day and agent</caption>
          <thead>
            <tr><th scope="col">Day (UTC)</th>{usage.agents.map((a) => <th key={a.agent.id} scope="col">{a.agent.name}</th>)}</tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.d}><th scope="row">{r.d}</th>{r.costs.map((c, k) => <td key={k}>{formatCost(c)}</td>)}</tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
