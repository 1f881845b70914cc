import { getMetadataStorage } from 'class-validator';
import type { FieldSchema } from '../http/dto/field-rules';

export type JsonSchema = Record<string, unknown>;

/**
 * A request DTO (apps/api/src/http/dto) as JSON Schema, read from class-validator's metadata
 * storage: each field rule carries what it accepts (`FieldRule`'s third argument); a rule written
 * without one documents its field as any JSON value, named by the rule. Fields keep the class's
 * order, which is the order the contract checks them in.
 */
export function dtoSchema(dto: new () => unknown): JsonSchema {
  const metas = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const meta of metas) {
    const doc = (meta.constraints ?? [])[0] as FieldSchema | undefined;
    // A rule without a schema of its own still says something a person can use.
    const schema = doc?.schema ?? { description: 'Checked by the service: a value it cannot take answers 400 with a sentence naming the field.' };
    properties[meta.propertyName] = { ...(properties[meta.propertyName] ?? {}), ...schema };
    if (doc?.required && !required.includes(meta.propertyName)) required.push(meta.propertyName);
  }
  return { type: 'object', title: dto.name, properties, ...(required.length ? { required } : {}) };
}

/** The names a DTO declares, for a query DTO's parameters. */
export function dtoFields(dto: new () => unknown): { name: string; schema: JsonSchema; required: boolean }[] {
  const schema = dtoSchema(dto);
  const required = (schema.required as string[] | undefined) ?? [];
  return Object.entries(schema.properties as Record<string, JsonSchema>).map(([name, s]) => ({ name, schema: s, required: required.includes(name) }));
}
