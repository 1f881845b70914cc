import { readInTurn } from '@board/kernel';
import { checkDefaultsPatch, cleanDefaults, mergeDefaults, propertyConfigView, readDefaultsAsked } from './defaults';
import { PropertyConfig, PropertyDef } from './property';
import { refusal } from '../../../test/support/refusal';

const TYPE_BUG = '11111111-1111-4111-8111-111111111111';
const TYPE_FEATURE = '22222222-2222-4222-8222-222222222222';
const OPT_A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const OPT_B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

const def = (id: string, name: string, type: string, config: PropertyConfig = {}, optionIds: string[] = [], position = 'a0'): PropertyDef => ({
  id, name, type, position, config, optionIds: new Set(optionIds),
});

const typeProperty = def('type', 'Type', 'select', {}, [TYPE_BUG, TYPE_FEATURE]);

describe('cleanDefaults', () => {
  it('keeps defaults keyed by live Type options whose values still validate', () => {
    const priority = def('p', 'Priority', 'select', { defaults: { [TYPE_BUG]: OPT_A, [TYPE_FEATURE]: OPT_B } }, [OPT_A, OPT_B]);
    expect(cleanDefaults(priority, typeProperty)).toEqual({ [TYPE_BUG]: OPT_A, [TYPE_FEATURE]: OPT_B });
  });

  it('drops a key that is no longer an option of Type', () => {
    const estimate = def('e', 'Estimate', 'number', { defaults: { [TYPE_BUG]: 3, 'cccccccc-cccc-4ccc-8ccc-cccccccccccc': 5 } });
    expect(cleanDefaults(estimate, typeProperty)).toEqual({ [TYPE_BUG]: 3 });
  });

  it('drops a value naming a deleted option, a multi-select list included', () => {
    const priority = def('p', 'Priority', 'select', { defaults: { [TYPE_BUG]: OPT_B } }, [OPT_A]);
    expect(cleanDefaults(priority, typeProperty)).toEqual({});
    const labels = def('l', 'Labels', 'multi_select', { defaults: { [TYPE_BUG]: [OPT_A, OPT_B], [TYPE_FEATURE]: [OPT_A] } }, [OPT_A]);
    expect(cleanDefaults(labels, typeProperty)).toEqual({ [TYPE_FEATURE]: [OPT_A] });
  });

  it('reads nothing without a Type', () => {
    const estimate = def('e', 'Estimate', 'number', { defaults: { [TYPE_BUG]: 3 } });
    expect(cleanDefaults(estimate, null)).toEqual({});
  });

  it('reads nothing on a type that cannot carry a default, or with no defaults stored', () => {
    expect(cleanDefaults(def('d', 'Due', 'date', { defaults: { [TYPE_BUG]: '2024-01-01' } }), typeProperty)).toEqual({});
    expect(cleanDefaults(def('t', 'Notes', 'text'), typeProperty)).toEqual({});
    expect(cleanDefaults(def('t', 'Notes', 'text', { defaults: [] as unknown as PropertyConfig['defaults'] }), typeProperty)).toEqual({});
  });

  it('keeps a checkbox false and drops empty values', () => {
    const done = def('c', 'Checked', 'checkbox', { defaults: { [TYPE_BUG]: false } });
    expect(cleanDefaults(done, typeProperty)).toEqual({ [TYPE_BUG]: false });
    const notes = def('t', 'Notes', 'text', { defaults: { [TYPE_BUG]: '', [TYPE_FEATURE]: 'hi' } });
    expect(cleanDefaults(notes, typeProperty)).toEqual({ [TYPE_FEATURE]: 'hi' });
  });
});

/** A defaults patch as a request reads it: the DTO's read (its refusal kept for its turn), then the check. */
const readDefaultsPatch = (property: Parameters<typeof checkDefaultsPatch>[0], typeProperty: Parameters<typeof checkDefaultsPatch>[1], raw: unknown) =>
  checkDefaultsPatch(property, typeProperty, readInTurn(() => readDefaultsAsked(raw)));

describe('a defaults patch', () => {
  const priority = def('p', 'Priority', 'select', {}, [OPT_A, OPT_B]);

  it('answers each key with the stored value; null removes', () => {
    expect(readDefaultsPatch(priority, typeProperty, { [TYPE_BUG]: OPT_A.toUpperCase(), [TYPE_FEATURE.toUpperCase()]: null })).toEqual({
      [TYPE_BUG]: OPT_A,
      [TYPE_FEATURE]: null,
    });
    expect(readDefaultsPatch(def('n', 'Size', 'number'), typeProperty, { [TYPE_BUG]: '42' })).toEqual({ [TYPE_BUG]: 42 });
    expect(readDefaultsPatch(def('t', 'Notes', 'text'), typeProperty, { [TYPE_BUG]: '' })).toEqual({ [TYPE_BUG]: null });
  });

  it('refuses a type that cannot carry a default with its name, before the shape of what was sent', () => {
    for (const type of ['person', 'date', 'link', 'iteration']) {
      const e = refusal(() => readDefaultsPatch(def('x', 'Sprint', type), typeProperty, {}));
      expect(e.code).toBe('property.no_defaults');
      expect(e.params).toEqual({ name: 'Sprint' });
    }
    expect(refusal(() => readDefaultsPatch(def('x', 'Sprint', 'iteration'), typeProperty, 'junk')).code).toBe('property.no_defaults');
  });

  it('refuses keys that are not options of Type, and any key without a Type', () => {
    expect(refusal(() => readDefaultsPatch(priority, typeProperty, { [OPT_A]: OPT_A })).code).toBe('property.default_key');
    expect(refusal(() => readDefaultsPatch(priority, typeProperty, { nope: OPT_A })).code).toBe('property.default_key');
    expect(refusal(() => readDefaultsPatch(priority, null, { [TYPE_BUG]: OPT_A })).code).toBe('property.default_key');
    expect(refusal(() => readDefaultsPatch(priority, typeProperty, [OPT_A])).code).toBe('property.default_key');
    expect(refusal(() => readDefaultsPatch(priority, typeProperty, null)).code).toBe('property.default_key');
  });

  it('refuses a value the value validator refuses, with its message code', () => {
    expect(refusal(() => readDefaultsPatch(priority, typeProperty, { [TYPE_BUG]: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc' })).code).toBe('value.option_gone');
    const e = refusal(() => readDefaultsPatch(def('n', 'Size', 'number'), typeProperty, { [TYPE_BUG]: 'lots' }));
    expect(e.code).toBe('value.number');
    expect(e.params).toEqual({ name: 'Size' });
  });
});

describe('mergeDefaults', () => {
  it('merges per key and removes null keys', () => {
    expect(mergeDefaults({ a: 1, b: 2 }, { b: null, c: 3 })).toEqual({ a: 1, c: 3 });
    expect(mergeDefaults(undefined, { a: 1 })).toEqual({ a: 1 });
  });
});

describe('propertyConfigView', () => {
  it('shows dated on selects only, cleaned defaults and a live when rule', () => {
    const status = def('s', 'Status', 'select', {}, [OPT_A]);
    const release = def('r', 'Release', 'select', { dated: true, secret: 1 } as PropertyConfig);
    const notes = def('n', 'Notes', 'text', { when: { propertyId: 's', optionIds: [OPT_A] }, defaults: { [TYPE_BUG]: 'x', bad: 'y' } });
    const orphan = def('o', 'Orphan', 'text', { when: { propertyId: 'gone', optionIds: [OPT_A] } });
    const all = [typeProperty, status, release, notes, orphan];
    expect(propertyConfigView(status, all, typeProperty)).toEqual({ dated: false, defaults: {}, when: null });
    expect(propertyConfigView(release, all, typeProperty)).toEqual({ dated: true, defaults: {}, when: null });
    expect(propertyConfigView(notes, all, typeProperty)).toEqual({ defaults: { [TYPE_BUG]: 'x' }, when: { propertyId: 's', optionIds: [OPT_A] } });
    expect(propertyConfigView(orphan, all, typeProperty)).toEqual({ defaults: {}, when: null });
  });
});
