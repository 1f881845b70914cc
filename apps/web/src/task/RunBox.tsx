import { useState } from 'react';
import { get, post } from '../api/client';
import type { FullTask, Run } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';
import { Avatar } from '../ui/Avatar';
import { QuestionBox } from './RunQuestion';
import { RunLinks, RunUsageLine } from './RunOutput';

const LEASE_MS = 30 * 60_000;

/** The open run (goal, plan, step, log, lease) with a person's controls, and the past runs. */
export function RunBox({ task, onChanged }: { task: FullTask; onChanged: () => Promise<void> }) {
  const act = useAction();
  const run = task.run;
  // Taking over ends the agent's run for good: asked once more before it is sent.
  const [confirming, setConfirming] = useState(false);
  const control = (runId: string, word: string) => act.run(async () => { await post(`/runs/${runId}/control`, { control: word }); await onChanged(); });
  const leaseEnds = run ? (run.reportDueAt ? new Date(run.reportDueAt) : new Date(Date.parse(run.updatedAt) + LEASE_MS)) : null;
  return (
    <section aria-labelledby="run-h" className="run-box">
      <h3 id="run-h">Agent run</h3>
      {run ? (
        <div className={`run run-${run.status}`}>
          <p><Avatar person={run.agent} size={20} /> <strong>{run.agent?.name ?? 'An agent'}</strong> · <span className="run-status">{run.status === 'handed_over' ? 'Waiting for review' : run.status}</span>{run.control && <span className="muted"> · asked to {run.control.replace('_', ' ')}</span>}</p>
          <p><strong>Goal:</strong> {run.goal || '—'}</p>
          <p><strong>Now:</strong> {run.step || '—'}</p>
          {run.steps && run.steps.length > 0 && (
            <ol className="plan" aria-label="Plan">
              {run.steps.map((s, i) => <li key={i} className={`step-${s.state}`}>{s.state === 'done' ? '✓ ' : s.state === 'active' ? '▶ ' : ''}{s.text}</li>)}
            </ol>
          )}
          {/* A new question replaces the last: its box starts with nothing ticked or typed. */}
          <QuestionBox key={run.question?.id ?? 'none'} run={run} />
          <RunLinks links={run.links} />
          <RunUsageLine usage={run.usage} />
          <p className="muted">Last report {new Date(run.updatedAt).toLocaleTimeString()} · last beat {new Date(run.beatAt).toLocaleTimeString()} · lease until {leaseEnds?.toLocaleTimeString()}</p>
          {run.log && run.log.length > 0 && (
            <details>
              <summary>Log ({run.log.length})</summary>
              <ol className="run-log">{run.log.map((l, i) => <li key={i}><time className="muted">{new Date(l.at).toLocaleTimeString()}</time> {l.text}</li>)}</ol>
            </details>
          )}
          <div className="row-actions">
            <button type="button" onClick={() => void control(run.id, 'pause')}>Pause</button>
            <button type="button" onClick={() => void control(run.id, 'resume')}>Resume</button>
            <button type="button" onClick={() => void control(run.id, 'stop')}>Stop</button>
            <button type="button" className="danger" aria-expanded={confirming} onClick={() => setConfirming(true)}>Take over</button>
          </div>
          {confirming && (
            <div className="confirm" role="group" aria-labelledby="take-over-q">
              <p id="take-over-q">Take this task over from {run.agent?.name ?? 'the agent'}? Its run ends and cannot be resumed.</p>
              <div className="row-actions">
                <button type="button" className="danger" onClick={() => { setConfirming(false); void control(run.id, 'take_over'); }}>Yes, take it over</button>
                <button type="button" autoFocus onClick={() => setConfirming(false)}>Keep the run</button>
              </div>
            </div>
          )}
          <ErrorLine error={act.error} />
        </div>
      ) : <p className="muted">No run open.</p>}
      {task.pastRuns.length > 0 && <PastRuns task={task} />}
    </section>
  );
}

const PAST_PAGE = 20;

/** Closed runs, newest first: the task read's first twenty, then earlier ones twenty at a time (`?before=`). */
function PastRuns({ task }: { task: FullTask }) {
  const [earlier, setEarlier] = useState<Run[]>([]);
  const [more, setMore] = useState<boolean | null>(null);
  const act = useAction();
  const runs = [...task.pastRuns, ...earlier.filter((r) => !task.pastRuns.some((p) => p.id === r.id))];
  // Without an answer yet, a full first page may have more behind it.
  const canMore = more ?? task.pastRuns.length >= PAST_PAGE;
  const loadMore = () =>
    void act.run(async () => {
      const a = await get<{ runs: Run[]; more: boolean }>(`/tasks/${task.id}/runs?before=${runs[runs.length - 1].id}`);
      setEarlier((e) => [...e, ...a.runs]);
      setMore(a.more);
    });
  return (
    <details>
      <summary>Past runs ({runs.length}{canMore ? '+' : ''})</summary>
      <ul className="past-runs">
        {runs.map((r) => (
          <li key={r.id}>
            {r.agent?.name ?? 'An agent'}: {r.goal || r.step} — {r.status} {r.endedAt ? new Date(r.endedAt).toLocaleString() : ''}
            <RunLinks links={r.links} label={`Links of ${r.agent?.name ?? 'the agent'}'s run`} />
            <RunUsageLine usage={r.usage} />
          </li>
        ))}
      </ul>
      {canMore && <button type="button" disabled={act.busy} onClick={loadMore}>Show earlier runs</button>}
      <ErrorLine error={act.error} />
    </details>
  );
}
