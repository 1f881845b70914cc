import type { Board, Run } from '@board/client';
import { briefRun, linkLine, money, namedValues } from './readable';

const option = (id: string, name: string) => ({ id, propertyId: 'p', name, color: '#112233', position: 'a' });
const board = {
  properties: [
    { id: 'status', name: 'Status', type: 'select', position: 'a', config: {}, options: [option('o1', 'Doing'), option('o2', 'Done')] },
    { id: 'tags', name: 'Tags', type: 'multi_select', position: 'b', config: {}, options: [option('t1', 'ui')] },
    { id: 'who', name: 'Owner', type: 'person', position: 'c', config: {}, options: [] },
    { id: 'est', name: 'Estimate', type: 'number', position: 'd', config: {}, options: [] },
  ],
  members: [{ id: 'u1', name: 'Olive', email: null, color: '#abcdef', emoji: null, role: 'owner', kind: 'human' }],
} as unknown as Pick<Board, 'properties' | 'members'>;

describe('readable answers', () => {
  it('names values by property, option and person, with their ids beside, in property order; empty ones left out', () => {
    expect(namedValues({ est: 3, who: 'u1', tags: ['t1', 'gone'], status: 'o2', empty: null }, board)).toEqual([
      { property: 'Status', propertyId: 'status', type: 'select', value: 'Done', optionId: 'o2' },
      { property: 'Tags', propertyId: 'tags', type: 'multi_select', value: ['ui', '(removed option)'], optionIds: ['t1', 'gone'] },
      { property: 'Owner', propertyId: 'who', type: 'person', value: 'Olive', memberId: 'u1' },
      { property: 'Estimate', propertyId: 'est', type: 'number', value: 3 },
    ]);
    expect(namedValues({ tags: [], who: '' }, board)).toEqual([]);
  });

  it('briefs a run: plan marks and log lines by who wrote them, no avatar or beat times', () => {
    const run = {
      id: 'r',
      taskId: 't',
      status: 'running',
      goal: 'g',
      step: 'b',
      control: null,
      startedAt: 'x',
      endedAt: null,
      updatedAt: 'x',
      beatAt: 'x',
      reportDueAt: null,
      agent: { id: 'a', name: 'Claudia', color: '#000000', emoji: null },
      stepsDone: 1,
      stepsTotal: 2,
      lastLog: 'ok',
      steps: [
        { text: 'a', state: 'done' },
        { text: 'b', state: 'active' },
      ],
      log: [
        { at: 'x', text: 'started: g', by: null },
        { at: 'y', text: 'ok', by: { id: 'u1', name: 'Olive' } },
      ],
    } as Run;
    expect(briefRun(run)).toEqual({ id: 'r', taskId: 't', status: 'running', goal: 'g', step: 'b', control: null, stepsDone: 1, stepsTotal: 2, lastLog: 'ok', plan: ['[x] a', '[>] b'], log: ['started: g', 'Olive: ok'] });
  });

  it('briefs a run’s question with its answer, its links as lines and its usage once there is some', () => {
    const base = { id: 'r', taskId: 't', status: 'running', goal: 'g', step: 'b', control: null } as Run;
    const usage = { inputTokens: 0, outputTokens: 0, costMicros: 0, model: null };
    expect(briefRun({ ...base, question: null, links: [], usage })).toEqual({ id: 'r', taskId: 't', status: 'running', goal: 'g', step: 'b', control: null });
    const run = {
      ...base,
      question: { id: 'q', text: 'Which?', options: ['a', 'b'], multiple: false, askedAt: 'x', answer: { text: 'b', choices: ['b'], by: { id: 'u1', name: 'Olive' }, at: 'y' } },
      links: [
        { url: 'https://git.example.com/pr/1', title: 'Fix', kind: 'pr', at: 'x' },
        { url: 'https://example.com', title: null, kind: 'other', at: 'x' },
      ],
      usage: { ...usage, outputTokens: 5 },
    } as Run;
    expect(briefRun(run)).toMatchObject({
      question: { text: 'Which?', options: ['a', 'b'], multiple: false, answer: 'b', answeredBy: 'Olive' },
      links: ['pr: Fix <https://git.example.com/pr/1>', 'other: <https://example.com>'],
      usage: { inputTokens: 0, outputTokens: 5, costMicros: 0, model: null },
    });
    expect(linkLine({ url: 'https://x.example.com', title: null, kind: 'doc' })).toBe('doc: <https://x.example.com>');
    expect([money(0), money(45_000), money(1_234_567)]).toEqual(['0.0000', '0.0450', '1.2346']);
  });
});
