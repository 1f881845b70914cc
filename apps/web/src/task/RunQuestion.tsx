import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { post } from '../api/client';
import type { Board, Run, RunQuestion } from '../api/types';
import { setQuery } from '../router';
import { ErrorLine, useAction } from '../ui/Field';

/** More options than this, or a question taking several, is answered in the task panel, not on the card. */
const CARD_OPTIONS = 3;

/**
 * Sends a person's answer. This tab's own change is skipped by the stream (clientId), so the
 * answered run is put into the cached boards at once and the board and task are read again.
 */
function useAnswer(run: Run) {
  const qc = useQueryClient();
  const act = useAction();
  const send = (answer: string[] | string) =>
    act.run(async () => {
      const a = await post<{ run: Run }>(`/runs/${run.id}/answer`, { answer });
      qc.setQueriesData<Board>({ queryKey: ['board'] }, (b) => (b?.runs ? { ...b, runs: b.runs.map((r) => (r.id === a.run.id ? { ...r, ...a.run } : r)) } : b));
      await Promise.all([qc.invalidateQueries({ queryKey: ['task', run.taskId] }), qc.invalidateQueries({ queryKey: ['board'] })]);
    });
  return { act, send };
}

/** Who answered what, and when. */
export function AnsweredLine({ question, compact = false }: { question: RunQuestion; compact?: boolean }) {
  const a = question.answer;
  if (!a) return null;
  const at = new Date(a.at);
  return (
    <p className="answered">
      <span aria-hidden="true">✓ </span>
      <strong>{a.by.name}</strong> answered <q>{a.text}</q>
      {!compact && <> <time className="muted" dateTime={a.at} title={at.toLocaleString()}>{at.toLocaleString()}</time></>}
    </p>
  );
}

/** The run's question in the task panel: option buttons, checkboxes and Send, or a text box. */
export function QuestionBox({ run }: { run: Run }) {
  const q = run.question;
  const { act, send } = useAnswer(run);
  const [picked, setPicked] = useState<string[]>([]);
  const [text, setText] = useState('');
  if (!q) return null;
  const agent = run.agent?.name ?? 'The agent';
  const open = q.answer === null;
  const labelId = `question-${q.id}`;
  return (
    <div className="question" role="group" aria-labelledby={labelId}>
      <p id={labelId}>
        <strong>{agent} {open ? 'asks' : 'asked'}:</strong> {q.text}{' '}
        <time className="muted" dateTime={q.askedAt}>{new Date(q.askedAt).toLocaleTimeString()}</time>
      </p>
      {open && q.options && !q.multiple && (
        <div className="question-options">
          {q.options.map((o) => (
            <button key={o} type="button" disabled={act.busy} onClick={() => void send([o])}>{o}</button>
          ))}
        </div>
      )}
      {open && q.options && q.multiple && (
        <form
          className="question-choices"
          onSubmit={(e) => {
            e.preventDefault();
            // Choices go in the order offered, as the service keeps them.
            void send(q.options!.filter((o) => picked.includes(o))).then((ok) => ok && setPicked([]));
          }}
        >
          <fieldset>
            <legend className="sr-only">Choose one or more</legend>
            {q.options.map((o) => (
              <label key={o} className="check">
                <input type="checkbox" checked={picked.includes(o)} onChange={(e) => setPicked((p) => (e.target.checked ? [...p, o] : p.filter((x) => x !== o)))} /> {o}
              </label>
            ))}
          </fieldset>
          <button type="submit" className="primary" disabled={act.busy}>Send</button>
        </form>
      )}
      {open && !q.options && (
        <form
          className="question-free"
          onSubmit={(e) => {
            e.preventDefault();
            void send(text).then((ok) => ok && setText(''));
          }}
        >
          <label htmlFor={`answer-${q.id}`}>Your answer</label>
          <textarea id={`answer-${q.id}`} rows={2} value={text} maxLength={2000} onChange={(e) => setText(e.target.value)} />
          <button type="submit" className="primary" disabled={act.busy}>Send</button>
        </form>
      )}
      <AnsweredLine question={q} />
      <ErrorLine error={act.error} />
    </div>
  );
}

/**
 * The question on the board card, kept outside the card's own button so no control sits inside
 * another: a few single choices as buttons, anything else opens the task panel.
 */
export function CardQuestion({ run }: { run: Run }) {
  const q = run.question;
  const { act, send } = useAnswer(run);
  // Once the agent works again the answer is old news for the board: the panel still shows it.
  if (!q || run.status !== 'waiting') return null;
  const agent = run.agent?.name ?? 'The agent';
  if (q.answer) {
    return (
      <div className="card-question answered-q">
        <AnsweredLine question={q} compact />
      </div>
    );
  }
  const inline = q.options && !q.multiple && q.options.length <= CARD_OPTIONS;
  return (
    <div className="card-question" role="group" aria-label={`${agent} asks: ${q.text}`}>
      <p><strong>{agent} asks:</strong> {q.text}</p>
      <div className="question-options">
        {inline
          ? q.options!.map((o) => (
              <button key={o} type="button" disabled={act.busy} onClick={() => void send([o])}>{o}</button>
            ))
          : <button type="button" onClick={() => setQuery({ task: run.taskId })}>Answer…</button>}
      </div>
      <ErrorLine error={act.error} />
    </div>
  );
}
