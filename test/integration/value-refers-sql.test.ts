/**
 * A value is checked twice on its hot path: normalizeValue (TypeScript, against the definitions
 * and members read) and, at the write, `valueRefersExist` (SQL, against the live tables) over
 * what `valueRefers` says the value names. For random values of every kind that names options or
 * people (own options, another property's, unknown ids; members, non-members, unknown people),
 * the SQL passes exactly the values normalizeValue accepts.
 */
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { DomainError } from '@board/kernel';
import { Database, PropertyDefsQuery, sql, valueRefersExist } from '@board/persistence';
import { normalizeValue, PropertyDef, StoredValue, valueRefers } from '@board/properties';
import { aProject } from '../support/builders';
import { addMember, registerPerson, startTestApp, TestApp } from '../support/test-app';

const SEED = Number(process.env.VALUE_REFERS_SQL_SEED ?? Date.now() % 2 ** 31);

describe('valueRefersExist (SQL) agrees with normalizeValue (TypeScript) on what a value names', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('passes exactly the values normalizeValue accepts', async () => {
    const owner = await registerPerson(t, 'Olive');
    const member = await registerPerson(t, 'Mo');
    const stranger = await registerPerson(t, 'Stan');
    const { project, props } = await aProject(owner.client, {
      key: 'REF',
      properties: { Pick: ['select', ['A', 'B', 'C']], Tags: ['multi_select', ['X', 'Y']], Sprint: ['iteration', ['S1']], Owner: ['person'], Other: ['select', ['Z']] },
    });
    await addMember(owner.client, project.id, member);
    const { defs, memberIds } = await t.app.get(PropertyDefsQuery).loadWithMembers(project.id);
    const db = t.app.get(Database);
    const def = (name: string): PropertyDef => defs.find((d) => d.name === name)!;
    const foreign = props.Other.options.map((o) => o.id);
    const idsOf = (name: string) => props[name].options.map((o) => o.id);
    const unknown = fc.constant(null).map(() => randomUUID());
    const optionId = (name: string) => fc.oneof(fc.constantFrom(...idsOf(name)), fc.constantFrom(...foreign), unknown);
    const person = fc.oneof(fc.constantFrom(owner.user.id, member.user.id, stranger.user.id), unknown);

    const cases: fc.Arbitrary<[PropertyDef, unknown]> = fc.oneof(
      optionId('Pick').map((v) => [def('Pick'), v] as [PropertyDef, unknown]),
      optionId('Sprint').map((v) => [def('Sprint'), v] as [PropertyDef, unknown]),
      fc.uniqueArray(optionId('Tags'), { maxLength: 3 }).map((v) => [def('Tags'), v] as [PropertyDef, unknown]),
      person.map((v) => [def('Owner'), v] as [PropertyDef, unknown]),
    );

    let accepted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(cases, async ([property, raw]) => {
        let normalized: StoredValue | null = null;
        try {
          normalized = normalizeValue(property, raw, { memberIds });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
        }
        const tsOk = normalized !== null || raw === null;
        const refers = valueRefers(property, tsOk ? normalized : (raw as StoredValue));
        const row = await db.single<{ ok: boolean }>(sql`SELECT ${valueRefersExist(project.id, refers.propertyId, refers.optionIds, refers.memberIds)} AS ok`);
        if (tsOk) accepted++;
        else refused++;
        expect(row.ok).toBe(tsOk);
      }),
      { numRuns: 300, seed: SEED },
    );
    // Both sides of the rule were exercised.
    expect(accepted).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(20);
  }, 60_000);
});
