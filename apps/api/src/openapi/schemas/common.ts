import type { JsonSchema } from '../dto-schema';

/** Small builders for the answer schemas (JSON Schema 2020-12, the dialect of OpenAPI 3.1). */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const uuid: JsonSchema = { type: 'string', format: 'uuid' };
export const timestamp: JsonSchema = { type: 'string', format: 'date-time' };
export const day: JsonSchema = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
export const str: JsonSchema = { type: 'string' };
export const int: JsonSchema = { type: 'integer' };
export const num: JsonSchema = { type: 'number' };
export const bool: JsonSchema = { type: 'boolean' };
export const anyJson: JsonSchema = {};
export const rank: JsonSchema = { type: 'string', description: 'Base-62 fractional index, compared byte by byte.' };
export const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
export const words = (...values: string[]): JsonSchema => ({ type: 'string', enum: values });
export const mapOf = (values: JsonSchema): JsonSchema => ({ type: 'object', additionalProperties: values });

/**
 * An object whose listed fields are all present unless named in `optional`, and nothing else: the
 * contract check fails an answer that carries a field its document does not name.
 */
export function obj(properties: Record<string, JsonSchema>, optional: string[] = [], description?: string): JsonSchema {
  const required = Object.keys(properties).filter((k) => !optional.includes(k));
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

export const COMMON_SCHEMAS: Record<string, JsonSchema> = {
  Error: obj({ error: str }, [], 'Every refusal: `{ error: <the contract\'s sentence> }`.'),
  EditClash: obj(
    { error: { const: 'This changed while you typed.' }, field: str, current: nullable(str) },
    ['field'],
    'An edit whose base no longer matches: nothing was written; `current` is the saved text.',
  ),
  Ok: obj({ ok: { const: true } }),
};
