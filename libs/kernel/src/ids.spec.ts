import { DomainError } from './domain-error';
import { isUuid, parseId, withArticle } from './ids';

const LOWER = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const UPPER = '3F2504E0-4F89-41D3-9A0C-0305E82C3301';

function refusal(value: unknown, kind: Parameters<typeof parseId>[1]): DomainError {
  try {
    parseId(value, kind);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error(`parseId(${JSON.stringify(value)}) did not throw`);
}

describe('parseId', () => {
  it('accepts a lower-case uuid as is', () => {
    expect(parseId(LOWER, 'task')).toBe(LOWER);
  });

  it('accepts an upper- or mixed-case uuid and answers it lower-cased', () => {
    expect(parseId(UPPER, 'task')).toBe(LOWER);
    expect(parseId('3F2504e0-4f89-41D3-9a0c-0305E82c3301', 'project')).toBe(LOWER);
  });

  it.each([
    ['surrounding spaces', ` ${LOWER} `],
    ['a leading space', ` ${LOWER}`],
    ['a trailing newline', `${LOWER}\n`],
    ['no dashes', LOWER.replace(/-/g, '')],
    ['one character short', LOWER.slice(0, -1)],
    ['one character long', `${LOWER}0`],
    ['a non-hex letter', LOWER.replace('f', 'g')],
    ['braces', `{${LOWER}}`],
    ['the empty string', ''],
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['an object', { id: LOWER }],
  ])('refuses %s with id.invalid and the kind', (_label, value) => {
    const e = refusal(value, 'option');
    expect(e.code).toBe('id.invalid');
    expect(e.params).toEqual({ kind: 'option' });
  });

  it('carries the kind it was asked for', () => {
    expect(refusal('nope', 'checklist item').params).toEqual({ kind: 'checklist item' });
    expect(refusal('nope', 'task').params).toEqual({ kind: 'task' });
  });
});

describe('isUuid', () => {
  it('tells uuids from anything else', () => {
    expect(isUuid(LOWER)).toBe(true);
    expect(isUuid(UPPER)).toBe(true);
    expect(isUuid(` ${LOWER}`)).toBe(false);
    expect(isUuid(undefined)).toBe(false);
  });
});

describe('withArticle', () => {
  it('puts an before a vowel sound and a elsewhere', () => {
    expect(withArticle('option')).toBe('an option');
    expect(withArticle('agent')).toBe('an agent');
    expect(withArticle('attachment')).toBe('an attachment');
    expect(withArticle('task')).toBe('a task');
    expect(withArticle('project')).toBe('a project');
    expect(withArticle('checklist item')).toBe('a checklist item');
    expect(withArticle('webhook')).toBe('a webhook');
  });

  it('says "a user", since the u sounds like "you"', () => {
    expect(withArticle('user')).toBe('a user');
  });
});
