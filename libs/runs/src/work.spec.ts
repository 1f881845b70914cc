import { refusal } from '../../../test/support/refusal';
import { mergeLinks, readLinks } from './links';
import { readAnswer as judge, readAnswerSent, readQuestion } from './question';

/** An answer as a request reads it: the DTO's read, then the question's judgement. */
const readAnswer = (question: Parameters<typeof judge>[0], value: unknown) => judge(question, readAnswerSent(value));
import { BUDGET_PAUSE_LINE, Person, readRunReport, Run, RunProps } from './run';
import { growUsage, NO_USAGE, readUsage } from './usage';

/** Questions, links, usage and the budget's pause: the rules of extensions § 1.2–1.4 on the aggregate. */

const AGENT = 'agent-1';
const MILO: Person = { id: 'person-2', name: 'Milo' };
const now = new Date('2026-03-01T10:00:00.000Z');
const claim = (): Run => Run.claim({ id: 'run-1', projectId: 'project-1', taskId: 'task-1', agentId: AGENT, body: { goal: 'Ship' }, now });
const copy = (run: Run): RunProps => structuredClone(run.snapshot) as RunProps;

describe('a question', () => {
  it('has text of 1 to 500 characters and 2 to 10 distinct options of 1 to 100, trimmed', () => {
    expect(readQuestion({ text: ' Which? ', options: [' a ', 'b'], multiple: true })).toEqual({ text: 'Which?', options: ['a', 'b'], multiple: true });
    expect(readQuestion({ text: 'Why?' })).toEqual({ text: 'Why?', options: null, multiple: false });
    // multiple means nothing without options
    expect(readQuestion({ text: 'Why?', multiple: true }).multiple).toBe(false);
    for (const bad of [null, 'text', { text: '' }, { text: 5 }, { text: 'x'.repeat(501) }]) expect(refusal(() => readQuestion(bad)).code).toBe('run.question_text');
    for (const options of [['a'], [], Array(11).fill('x').map((x, i) => x + i), ['A', 'a'], ['a', ''], ['a', 'x'.repeat(101)], 'a,b', ['a', 2]]) {
      expect(refusal(() => readQuestion({ text: 'Which?', options })).code).toBe('run.question_options');
    }
    expect(readQuestion({ text: 'x'.repeat(500), options: ['x'.repeat(100), 'y'] }).options).toHaveLength(2);
  });

  it('is answered with offered strings exactly (in offered order), or with text for a free one', () => {
    const one = { text: 'Q', options: ['Yes', 'No'], multiple: false };
    const many = { ...one, multiple: true };
    expect(readAnswer(one, ['No'])).toEqual({ text: 'No', choices: ['No'] });
    expect(readAnswer(many, ['No', 'Yes'])).toEqual({ text: 'Yes, No', choices: ['Yes', 'No'] });
    for (const bad of [['Yes', 'No'], [], ['yes'], 'Yes', [['Yes']]]) expect(refusal(() => readAnswer(one, bad)).code).toBe('run.answer_choice');
    expect(refusal(() => readAnswer(many, ['Yes', 'Yes'])).code).toBe('run.answer_choice');
    const free = { text: 'Q', options: null, multiple: false };
    expect(readAnswer(free, '  because ')).toEqual({ text: 'because', choices: null });
    expect(refusal(() => readAnswer(free, '')).code).toBe('text.empty');
    expect(refusal(() => readAnswer(free, 'x'.repeat(2001))).code).toBe('text.too_long');
    expect(refusal(() => readAnswer(free, ['a'])).code).toBe('text.not_text');
  });

  it('goes with status waiting, replaces the last, is answered once, and asks to resume unless a word waits', () => {
    const run = claim();
    const before = copy(run);
    expect(refusal(() => run.report(AGENT, readRunReport({ question: { text: 'Q?' }, log: 'x' }), now)).code).toBe('run.question_needs_waiting');
    expect(copy(run)).toEqual(before);
    run.report(AGENT, readRunReport({ status: 'waiting', question: { text: 'First?' } }), now);
    run.report(AGENT, readRunReport({ status: 'waiting', question: { text: 'Second?', options: ['a', 'b'] } }), now);
    expect(run.snapshot.question).toMatchObject({ text: 'Second?', options: ['a', 'b'], answer: null });
    expect(run.snapshot.log.map((l) => l.text)).toEqual(['started: Ship', 'asked: First?', 'asked: Second?']);
    run.command('stop', MILO, now);
    run.answer(readAnswerSent(['b']), MILO, now);
    expect(run.control).toBe('stop');
    expect(run.snapshot.log.at(-1)).toMatchObject({ text: 'Milo answered: b', by: MILO });
    expect(refusal(() => run.answer(readAnswerSent(['a']), MILO, now)).code).toBe('run.no_open_question');
  });

  it('cannot be answered on a run that does not wait or has no question', () => {
    const run = claim();
    expect(refusal(() => run.answer(readAnswerSent('x'), MILO, now)).code).toBe('run.no_open_question');
    run.report(AGENT, readRunReport({ status: 'waiting' }), now);
    expect(refusal(() => run.answer(readAnswerSent('x'), MILO, now)).code).toBe('run.no_open_question');
    run.report(AGENT, readRunReport({ status: 'waiting', question: { text: 'Q?' } }), now);
    run.report(AGENT, readRunReport({ status: 'running' }), now);
    expect(refusal(() => run.answer(readAnswerSent('x'), MILO, now)).code).toBe('run.no_open_question');
    const answered = claim();
    answered.report(AGENT, readRunReport({ status: 'waiting', question: { text: 'Q?' } }), now);
    expect(answered.answer(readAnswerSent('yes'), MILO, now).text).toBe('yes');
    expect(answered.control).toBe('resume');
  });
});

describe('links', () => {
  it('are http(s) addresses with an optional title and a kind', () => {
    expect(readLinks([{ url: ' https://a.example/x ', title: ' T ', kind: 'pr' }, { url: 'http://b.example' }])).toEqual([
      { url: 'https://a.example/x', title: 'T', kind: 'pr' },
      { url: 'http://b.example', title: null, kind: 'other' },
    ]);
    for (const url of ['ftp://a.example', 'javascript:alert(1)', 'data:text/html,x', 'a.example', '', 5, `https://a.example/${'x'.repeat(2000)}`]) {
      expect(refusal(() => readLinks([{ url }])).code).toBe('run.link_invalid');
    }
    expect(refusal(() => readLinks([{ url: 'https://a.example', title: 'x'.repeat(201) }])).code).toBe('run.link_title');
    for (const kind of ['', 'PR', 'gist', 3]) expect(refusal(() => readLinks([{ url: 'https://a.example', kind }])).code).toBe('run.link_kind');
    expect(refusal(() => readLinks(Array(21).fill({ url: 'https://a.example' }))).code).toBe('run.links_too_many');
  });

  it('keep their first order, replace by url in place, and stop at 20', () => {
    const at = now.toISOString();
    const kept = mergeLinks([], readLinks([{ url: 'https://a.example' }, { url: 'https://b.example' }]), at);
    const merged = mergeLinks(kept, readLinks([{ url: 'https://a.example', kind: 'pr' }, { url: 'https://c.example' }]), at);
    expect(merged.map((l) => `${l.kind} ${l.url}`)).toEqual(['pr https://a.example', 'other https://b.example', 'other https://c.example']);
    const twenty = mergeLinks([], readLinks(Array.from({ length: 20 }, (_, i) => ({ url: `https://a.example/${i}` }))), at);
    expect(mergeLinks(twenty, readLinks([{ url: 'https://a.example/3', title: 'again' }]), at)).toHaveLength(20);
    expect(refusal(() => mergeLinks(twenty, readLinks([{ url: 'https://new.example' }]), at)).code).toBe('run.links_too_many');
  });
});

describe('usage', () => {
  it('is totals so far: whole numbers up to 10^15 that only grow; what grew is booked', () => {
    expect(readUsage({ inputTokens: 1, costMicros: 0, model: 'm' })).toEqual({ inputTokens: 1, costMicros: 0, model: 'm' });
    for (const bad of [{ inputTokens: -1 }, { outputTokens: 0.5 }, { costMicros: '1' }, { costMicros: 1e15 + 1 }, { costMicros: Infinity }, [], 'x']) {
      expect(refusal(() => readUsage(bad)).code).toBe('run.usage_counts');
    }
    expect(refusal(() => readUsage({ model: 'm'.repeat(101) })).code).toBe('text.too_long');
    const first = growUsage(NO_USAGE, { inputTokens: 10, costMicros: 5, model: 'm' });
    expect(first).toEqual({ usage: { inputTokens: 10, outputTokens: 0, costMicros: 5, model: 'm' }, increase: { inputTokens: 10, outputTokens: 0, costMicros: 5 } });
    expect(growUsage(first.usage, { inputTokens: 10 }).increase).toEqual({ inputTokens: 0, outputTokens: 0, costMicros: 0 });
    expect(growUsage(first.usage, { costMicros: 8 }).usage).toMatchObject({ inputTokens: 10, costMicros: 8, model: 'm' });
    expect(refusal(() => growUsage(first.usage, { costMicros: 4 })).code).toBe('run.usage_shrinks');
  });

  it('a report whose usage or links are refused changes nothing else', () => {
    const run = claim();
    run.report(AGENT, readRunReport({ usage: { costMicros: 100 } }), now);
    const before = copy(run);
    expect(refusal(() => run.report(AGENT, readRunReport({ step: 'new step', log: 'line', usage: { costMicros: 50 } }), now)).code).toBe('run.usage_shrinks');
    expect(refusal(() => run.report(AGENT, readRunReport({ step: 'new step', links: [{ url: 'ftp://x' }] }), now)).code).toBe('run.link_invalid');
    expect(copy(run)).toEqual(before);
    expect(run.report(AGENT, readRunReport({ usage: { costMicros: 150 } }), now).increase).toEqual({ inputTokens: 0, outputTokens: 0, costMicros: 50 });
  });
});

describe('the budget’s pause', () => {
  it('asks a running run with no word pending to pause, with its line by nobody', () => {
    const run = claim();
    expect(run.pauseForBudget(now)).toBe(true);
    expect(run.control).toBe('pause');
    expect(run.snapshot.log.at(-1)).toEqual({ at: now.toISOString(), text: BUDGET_PAUSE_LINE, by: null });
    expect(run.pauseForBudget(now)).toBe(false);
    const worded = claim();
    worded.command('stop', MILO, now);
    expect(worded.pauseForBudget(now)).toBe(false);
    expect(worded.control).toBe('stop');
    const waiting = claim();
    waiting.report(AGENT, readRunReport({ status: 'waiting' }), now);
    expect(waiting.pauseForBudget(now)).toBe(false);
  });
});
