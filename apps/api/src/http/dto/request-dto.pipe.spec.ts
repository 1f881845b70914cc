import { DomainError } from '@board/kernel';
import { AddChecklistItemBody, UpdateChecklistItemBody } from '../../checklist/checklist.dto';
import { AddCommentBody, EditCommentBody } from '../../comments/comments.dto';
import { ClaimRunBody, ControlRunBody, PastRunsQuery, ReportRunBody } from '../../runs/runs.dto';
import { UNREADABLE } from '../json-body';
import { parseRequest, RequestDtoPipe } from './request-dto.pipe';

/** The refusal a read raises, as code and params; null when it passes. */
function refusal(call: () => unknown): { code: string; params: unknown } | null {
  try {
    call();
    return null;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { code: error.code, params: error.params };
  }
}

const pipe = new RequestDtoPipe();
const body = (metatype: unknown, value: unknown) => pipe.transform(value, { type: 'body', metatype: metatype as never });

describe('RequestDtoPipe', () => {
  it('raises the text refusals with the field named as the contract names it', () => {
    expect(refusal(() => parseRequest(AddCommentBody, {}))).toEqual({ code: 'text.empty', params: { field: 'Body' } });
    expect(refusal(() => parseRequest(AddCommentBody, { body: 5 }))).toEqual({ code: 'text.not_text', params: { field: 'Body' } });
    expect(refusal(() => parseRequest(AddCommentBody, { body: '   ' }))).toEqual({ code: 'text.empty', params: { field: 'Body' } });
    expect(refusal(() => parseRequest(AddCommentBody, { body: 'x'.repeat(8001) }))).toEqual({ code: 'text.too_long', params: { field: 'Body', max: 8000 } });
    expect(refusal(() => parseRequest(EditCommentBody, { body: ' ' }))).toEqual({ code: 'comment.empty', params: {} });
  });

  it('raises the first failure in the order of the class fields', () => {
    expect(refusal(() => parseRequest(UpdateChecklistItemBody, { baseText: 5, text: 5 }))?.params).toEqual({ field: 'Text' });
    expect(refusal(() => parseRequest(ClaimRunBody, { step: 5, steps: 'x', goal: 5 }))?.params).toEqual({ field: 'Goal' });
    expect(refusal(() => parseRequest(ClaimRunBody, { step: 5, steps: 'x' }))?.code).toBe('run.steps_not_texts');
    expect(refusal(() => parseRequest(ClaimRunBody, { step: 5, steps: ['a'] }))?.params).toEqual({ field: 'Step' });
  });

  it('answers the typed DTO: trimmed text, truthiness, only the declared fields', () => {
    const patch = parseRequest(UpdateChecklistItemBody, { text: '  Buy milk ', done: 'yes', other: 1 });
    expect(patch).toBeInstanceOf(UpdateChecklistItemBody);
    expect({ ...patch }).toEqual({ text: 'Buy milk', done: true });
    expect({ ...parseRequest(UpdateChecklistItemBody, {}) }).toEqual({});
  });

  it('reads a JSON __proto__ key as data that no DTO declares', () => {
    const raw = JSON.parse('{"__proto__": {"text": "x"}, "text": 5}');
    expect(refusal(() => parseRequest(AddChecklistItemBody, raw))).toEqual({ code: 'text.not_text', params: { field: 'Text' } });
  });

  it('checks a run report in the order Run.report does', () => {
    const all = { reportFor: 0, status: 'taken_over', log: '', stepIndex: -1, steps: 'x', step: 5, goal: 5 };
    const order: string[] = [];
    let body: Record<string, unknown> = { ...all };
    for (let r = refusal(() => parseRequest(ReportRunBody, body)); r; r = refusal(() => parseRequest(ReportRunBody, body))) {
      order.push(r.code === 'text.not_text' || r.code === 'text.empty' ? `${r.code}:${(r.params as { field: string }).field}` : r.code);
      const field = ['goal', 'step', 'steps', 'stepIndex', 'log', 'status', 'reportFor'].find((f) => f in body)!;
      const { [field]: _dropped, ...rest } = body;
      body = rest;
    }
    expect(order).toEqual([
      'text.not_text:Goal', 'text.not_text:Step', 'run.steps_not_texts', 'run.step_index', 'text.empty:Log', 'run.take_over_by_person', 'run.report_for',
    ]);
    expect(refusal(() => parseRequest(ReportRunBody, { status: 'dancing' }))?.code).toBe('run.status_invalid');
    // The body is the report as read: null is no value, and a heartbeat reads nothing else.
    const defined = (dto: object) => Object.fromEntries(Object.entries(dto).filter(([, v]) => v !== undefined));
    expect(defined(parseRequest(ReportRunBody, { status: 'done', reportFor: 5, stepIndex: null, goal: ' Ship ' }))).toEqual({ beat: false, status: 'done', reportFor: 5, goal: 'Ship' });
    expect(defined(parseRequest(ReportRunBody, { beat: true, status: 'dancing', reportFor: 5, goal: 7 }))).toEqual({ beat: true });
  });

  it('checks words and ids', () => {
    expect(refusal(() => parseRequest(ControlRunBody, { control: 'dance' }))?.code).toBe('run.control_invalid');
    expect(parseRequest(ControlRunBody, { control: 'pause' }).control).toBe('pause');
    expect(refusal(() => parseRequest(PastRunsQuery, {}))?.code).toBe('run.before_missing');
    expect(refusal(() => parseRequest(PastRunsQuery, { before: '' }))?.code).toBe('run.before_missing');
    expect(refusal(() => parseRequest(PastRunsQuery, { before: 'nope' }))).toEqual({ code: 'id.invalid', params: { kind: 'run' } });
  });

  it('refuses a body that is not a JSON object, reads none as {}, and leaves plain parameters alone', () => {
    expect(refusal(() => body(AddChecklistItemBody, UNREADABLE))?.code).toBe('request.not_json');
    expect(refusal(() => body(AddChecklistItemBody, [1]))?.code).toBe('request.not_json');
    expect(refusal(() => body(AddChecklistItemBody, undefined))?.code).toBe('text.empty');
    expect(body(Object, [1])).toEqual([1]);
    expect(pipe.transform('abc', { type: 'param', metatype: String })).toBe('abc');
  });
});
