import {
  applyChecklistPatch, checklistAction, checklistItemView, isChecklistClash, isEmptyChecklistPatch, newChecklistItem,
  readChecklistPatch, readChecklistText,
} from './checklist-item';
import { refusal } from '../../../test/support/refusal';

describe('readChecklistText', () => {
  it('trims and keeps up to 400 characters', () => {
    expect(readChecklistText('  Buy milk  ')).toBe('Buy milk');
    expect(readChecklistText('x'.repeat(400))).toHaveLength(400);
    // Characters as a person counts them: 400 emoji are 400 characters.
    expect(readChecklistText('😀'.repeat(400))).toBe('😀'.repeat(400));
  });

  it('refuses missing, null, blank, non-text and too long text with the Text messages', () => {
    for (const value of [undefined, null, '', '   ']) {
      const e = refusal(() => readChecklistText(value));
      expect(e.code).toBe('text.empty');
      expect(e.params).toEqual({ field: 'Text' });
    }
    for (const value of [1, true, [], {}]) expect(refusal(() => readChecklistText(value)).code).toBe('text.not_text');
    const e = refusal(() => readChecklistText('x'.repeat(401)));
    expect(e.code).toBe('text.too_long');
    expect(e.params).toEqual({ field: 'Text', max: 400 });
  });
});

describe('newChecklistItem', () => {
  it('makes an unticked item after the last one', () => {
    const first = newChecklistItem({ id: 'i1', projectId: 'p', taskId: 't', text: ' One ', lastPosition: null });
    expect(first).toEqual({ id: 'i1', projectId: 'p', taskId: 't', text: 'One', done: false, position: expect.any(String) });
    const second = newChecklistItem({ id: 'i2', projectId: 'p', taskId: 't', text: 'Two', lastPosition: first.position });
    expect(second.position > first.position).toBe(true);
  });

  it('shows { id, taskId, text, done, position }', () => {
    const item = newChecklistItem({ id: 'i1', projectId: 'p', taskId: 't', text: 'One', lastPosition: null });
    expect(checklistItemView(item)).toEqual({ id: 'i1', taskId: 't', text: 'One', done: false, position: item.position });
  });
});

describe('readChecklistPatch', () => {
  it('reads each part as optional', () => {
    expect(readChecklistPatch({})).toEqual({});
    expect(isEmptyChecklistPatch(readChecklistPatch({}))).toBe(true);
    expect(isEmptyChecklistPatch(readChecklistPatch({ baseText: 'x' }))).toBe(true);
    expect(readChecklistPatch({ text: ' New ', baseText: ' Old ' })).toEqual({ text: 'New', baseText: 'Old' });
  });

  it('coerces done from any JSON value as Boolean would', () => {
    const truthy = [true, 1, -1, 'yes', 'false', '0', [], {}, [0]];
    const falsy = [false, 0, '', null];
    for (const v of truthy) expect(readChecklistPatch({ done: v }).done).toBe(true);
    for (const v of falsy) expect(readChecklistPatch({ done: v }).done).toBe(false);
    expect(isEmptyChecklistPatch(readChecklistPatch({ done: null }))).toBe(false);
  });

  it('refuses a text that is blank, too long or not text, and a base that is not text', () => {
    expect(refusal(() => readChecklistPatch({ text: '  ' })).code).toBe('text.empty');
    expect(refusal(() => readChecklistPatch({ text: null })).code).toBe('text.empty');
    expect(refusal(() => readChecklistPatch({ text: 'x'.repeat(401) })).code).toBe('text.too_long');
    expect(refusal(() => readChecklistPatch({ text: 5 })).code).toBe('text.not_text');
    const e = refusal(() => readChecklistPatch({ text: 'a', baseText: 5 }));
    expect(e.code).toBe('text.not_text');
    expect(e.params).toEqual({ field: 'BaseText' });
  });

  it('reads a null base as no base and an empty base as a base', () => {
    expect(readChecklistPatch({ text: 'a', baseText: null })).toEqual({ text: 'a' });
    expect(readChecklistPatch({ text: 'a', baseText: '' })).toEqual({ text: 'a', baseText: '' });
  });
});

describe('isChecklistClash', () => {
  it('never clashes without a base', () => {
    expect(isChecklistClash('saved', { text: 'new' })).toBe(false);
    expect(isChecklistClash('saved', { done: true })).toBe(false);
  });

  it('clashes when the saved text is neither the base nor the new text', () => {
    expect(isChecklistClash('theirs', { text: 'mine', baseText: 'old' })).toBe(true);
    expect(isChecklistClash('theirs', { done: true, baseText: 'old' })).toBe(true);
  });

  it('does not clash when the saved text is still the base, or already the new text', () => {
    expect(isChecklistClash('old', { text: 'mine', baseText: 'old' })).toBe(false);
    expect(isChecklistClash('mine', { text: 'mine', baseText: 'old' })).toBe(false);
    expect(isChecklistClash('old', { done: true, baseText: 'old' })).toBe(false);
  });
});

describe('checklistAction', () => {
  const item = { text: 'One', done: false };

  it('names the one action of a change, edited winning over a tick', () => {
    expect(checklistAction(item, applyChecklistPatch(item, { done: true }))).toBe('checked');
    expect(checklistAction({ ...item, done: true }, applyChecklistPatch({ ...item, done: true }, { done: false }))).toBe('unchecked');
    expect(checklistAction(item, applyChecklistPatch(item, { text: 'Two' }))).toBe('edited');
    expect(checklistAction(item, applyChecklistPatch(item, { text: 'Two', done: true }))).toBe('edited');
  });

  it('is null when nothing changes', () => {
    expect(checklistAction(item, applyChecklistPatch(item, { text: 'One', done: false }))).toBeNull();
    expect(checklistAction(item, applyChecklistPatch(item, {}))).toBeNull();
  });
});
