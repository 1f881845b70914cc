import { PropertyDef } from './property';
import { assertAdminPerson, checkWhenRule, quoteNames, readBoolean, readOptionDay, readOptionNote, readPropertyName, readWhenAsked, sameJson } from './property-rules';
import { refusal } from '../../../test/support/refusal';

const S = '11111111-1111-4111-8111-111111111111';
const M = '22222222-2222-4222-8222-222222222222';
const OPT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const OTHER = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

const def = (id: string, type: string, optionIds: string[] = []): PropertyDef => ({
  id, name: id, type, position: 'a0', config: {}, optionIds: new Set(optionIds),
});

describe('readPropertyName', () => {
  it('trims and caps at 40 characters', () => {
    expect(readPropertyName('  Priority ', true)).toBe('Priority');
    expect(refusal(() => readPropertyName('x'.repeat(41), true)).params).toEqual({ field: 'Name', max: 40 });
    expect(refusal(() => readPropertyName(undefined, true)).code).toBe('text.empty');
  });
});

describe('readBoolean', () => {
  it('takes only true and false, naming the field with a capital', () => {
    expect(readBoolean(true, 'showOnCard')).toBe(true);
    expect(readBoolean(false, 'dated')).toBe(false);
    for (const v of ['true', 1, null, {}]) {
      const e = refusal(() => readBoolean(v, 'showOnCard'));
      expect(e.code).toBe('input.boolean');
      expect(e.params).toEqual({ field: 'ShowOnCard' });
    }
  });
});

/** A `when` rule as a request reads it: the DTO's read, then the check against the properties. */
const readWhenRule = (value: unknown, selfId: string, all: Parameters<typeof checkWhenRule>[2]) => checkWhenRule(readWhenAsked(value), selfId, all);

describe('a when rule', () => {
  const all = [def('self', 'text'), def(S, 'select', [OPT, OTHER]), def(M, 'multi_select', [OPT])];

  it('answers null for null and a cleaned rule for a select and its options', () => {
    expect(readWhenRule(null, 'self', all)).toBeNull();
    expect(readWhenRule({ propertyId: S.toUpperCase(), optionIds: [OPT, OPT.toUpperCase(), OTHER] }, 'self', all)).toEqual({
      propertyId: S,
      optionIds: [OPT, OTHER],
    });
  });

  it('refuses anything else with when_invalid', () => {
    const bad = [
      'x', [], { propertyId: M, optionIds: [OPT] }, { propertyId: S, optionIds: [] }, { propertyId: S },
      { propertyId: S, optionIds: ['cccccccc-cccc-4ccc-8ccc-cccccccccccc'] },
      { propertyId: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd', optionIds: [OPT] },
    ];
    for (const v of bad) expect(refusal(() => readWhenRule(v, 'self', all)).code).toBe('property.when_invalid');
    expect(refusal(() => readWhenRule({ propertyId: S, optionIds: [OPT] }, S, all)).code).toBe('property.when_invalid');
  });

  it('judges the select it names before the shape of its options', () => {
    const gone = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';
    expect(refusal(() => readWhenRule({ propertyId: gone, optionIds: ['nope'] }, 'self', all)).code).toBe('property.when_invalid');
    expect(refusal(() => readWhenRule({ propertyId: S, optionIds: ['nope'] }, 'self', all)).code).toBe('id.invalid');
  });

  it('refuses ids that are not UUIDs as ids', () => {
    expect(refusal(() => readWhenRule({ propertyId: 'nope', optionIds: [OPT] }, 'self', all)).params).toEqual({ kind: 'property' });
    expect(refusal(() => readWhenRule({ propertyId: S, optionIds: ['nope'] }, 'self', all)).params).toEqual({ kind: 'option' });
  });
});

describe('quoteNames', () => {
  it('quotes and joins', () => {
    expect(quoteNames(['A', 'B c'])).toBe('"A", "B c"');
  });
});

describe('readOptionDay and readOptionNote', () => {
  it('reads days as YYYY-MM-DD or null', () => {
    expect(readOptionDay(undefined, 'startsOn')).toBeUndefined();
    expect(readOptionDay(null, 'startsOn')).toBeNull();
    expect(readOptionDay('2024-02-29', 'startsOn')).toBe('2024-02-29');
    for (const v of ['2023-02-29', '2024-1-1', '2024-01-01T00:00:00Z', 5]) {
      const e = refusal(() => readOptionDay(v, 'targetOn'));
      expect(e.code).toBe('value.date');
      expect(e.params).toEqual({ name: 'TargetOn' });
    }
  });

  it('reads a note of at most 8000 characters; blank and null store null', () => {
    expect(readOptionNote(undefined)).toBeUndefined();
    expect(readOptionNote(null)).toBeNull();
    expect(readOptionNote('  ')).toBeNull();
    expect(readOptionNote(' **ship** ')).toBe('**ship**');
    expect(refusal(() => readOptionNote('x'.repeat(8001))).params).toEqual({ field: 'Note', max: 8000 });
    expect(refusal(() => readOptionNote(3)).code).toBe('text.not_text');
  });
});

describe('assertAdminPerson', () => {
  it('lets owners and admins who are people through', () => {
    expect(() => assertAdminPerson({ kind: 'human', role: 'owner' }, 'x')).not.toThrow();
    expect(() => assertAdminPerson({ kind: 'human', role: 'admin' }, 'x')).not.toThrow();
  });

  it('refuses a token as not a person and a member as not an admin', () => {
    expect(refusal(() => assertAdminPerson({ kind: 'agent', role: 'member' }, 'x')).code).toBe('gate.human');
    const e = refusal(() => assertAdminPerson({ kind: 'human', role: 'member' }, 'change dated properties'));
    expect(e.code).toBe('gate.admin');
    expect(e.params).toEqual({ what: 'change dated properties' });
  });
});

describe('sameJson', () => {
  it('ignores the order of object keys but not of arrays', () => {
    expect(sameJson({ a: 1, b: { c: [1, 2], d: null } }, { b: { d: null, c: [1, 2] }, a: 1 })).toBe(true);
    expect(sameJson({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson('x', 'x')).toBe(true);
  });
});
