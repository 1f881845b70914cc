import { Transform } from 'class-transformer';
import { ValidateBy, type ValidationArguments } from 'class-validator';
import { DomainError, ErrorCode, ErrorParams, IdKind, parseId, readInTurn, readText, TextRule } from '@board/kernel';

/**
 * A refusal a field rule raises: the catalog's code and params. The rule's message carries it
 * as JSON so the pipe can raise it as the `DomainError` the catalog maps (class-validator's
 * `context` is fixed per decorator; a text field has three refusals).
 */
export interface Refusal {
  code: ErrorCode;
  params?: ErrorParams;
}

/** A field rule: null when the value passes, else the contract's refusal. */
export type FieldCheck = (value: unknown, dto: object) => Refusal | null;

/** Runs a domain reader and turns its `DomainError` into a refusal; other errors propagate. */
export function refusalOf(read: () => unknown): Refusal | null {
  try {
    read();
    return null;
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, params: error.params };
    throw error;
  }
}

/**
 * What a field accepts, as JSON Schema, for the API document (apps/api/src/openapi): kept in the
 * rule's class-validator metadata (`constraints[0]`). `required` marks a field the body must hold.
 */
export interface FieldSchema {
  schema: Record<string, unknown>;
  required?: boolean;
}

/** A value transform of a field (trim, truthiness): what its class-transformer `@Transform` does. */
export type FieldTransform = (value: unknown) => unknown;

const transforms = new WeakMap<object, Map<string, FieldTransform>>();

/**
 * A class-transformer `@Transform` that the request pipe can also run without class-transformer's
 * per-request walk (request-dto.pipe.ts; request-dto.pipe.spec.ts proves the two read alike).
 */
function TransformField(transform: FieldTransform): PropertyDecorator {
  const declared = Transform(({ value }) => transform(value));
  return (target, key) => {
    declared(target, key);
    const own = transforms.get(target) ?? new Map<string, FieldTransform>();
    own.set(String(key), transform);
    transforms.set(target, own);
  };
}

/** The transform a DTO class (or a class it extends) declares on `key`, if any. */
export function transformOf(dto: new () => object, key: string): FieldTransform | undefined {
  for (let proto: object | null = dto.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const found = transforms.get(proto)?.get(key);
    if (found) return found;
  }
  return undefined;
}

/** The one building block: a class-validator constraint named `name` whose failure is a refusal. */
export function FieldRule(name: string, check: FieldCheck, doc?: FieldSchema): PropertyDecorator {
  return ValidateBy({
    name,
    constraints: doc ? [doc] : [],
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => check(value, args?.object ?? {}) === null,
      defaultMessage: (args?: ValidationArguments) => JSON.stringify(check(args?.value, args?.object ?? {})),
    },
  });
}

/**
 * A text field: `<Field> must be text.`, `<Field> cannot be empty.`, `<Field> is too long
 * (max N characters).` (kernel `readText`, the same sentences the domain raises); trimmed unless
 * `trim: false`. `field` is the body key as the contract names it.
 */
export function TextField(field: string, rule: TextRule = {}): PropertyDecorator {
  const length = rule.max !== undefined ? { maxLength: rule.max } : {};
  const validate = FieldRule(`text:${field}`, (value) => refusalOf(() => readText(value, field, rule)), {
    // null reads as empty: accepted only where empty is (`allowEmpty`).
    schema: { type: rule.allowEmpty && !rule.required ? ['string', 'null'] : 'string', ...length },
    required: rule.required,
  });
  const trim = TransformField((value) => (rule.trim !== false && typeof value === 'string' ? value.trim() : value));
  return (target, key) => {
    trim(target, key);
    validate(target, key);
  };
}

/** One of fixed words, else the given refusal (missing is refused too unless `optional`). */
export function OneOf(words: readonly string[], code: ErrorCode, options: { optional?: boolean } = {}): PropertyDecorator {
  return FieldRule(`one-of:${code}`, (value) => {
    if (options.optional && (value === undefined || value === null)) return null;
    return typeof value === 'string' && words.includes(value) ? null : { code };
  }, { schema: options.optional ? { enum: [...words, null] } : { type: 'string', enum: [...words] }, required: !options.optional });
}

/** Any JSON value read as JavaScript's truthiness (`done`), as the contract says; never refused. */
export function Truthy(field: string): PropertyDecorator {
  const declare = FieldRule(`truthy:${field}`, () => null, { schema: { description: 'Any JSON value, read as true or false by its truthiness.' } });
  const coerce = TransformField((value) => (value === undefined ? undefined : Boolean(value)));
  return (target, key) => {
    coerce(target, key);
    declare(target, key);
  };
}

/**
 * The text a writer started from (`baseBody`, `baseText`): any text, empty included, trimmed; null
 * or absent is no base (the last write wins), so the DTO holds a string or nothing.
 */
export const BaseTextField = (field: string): PropertyDecorator =>
  Keeps(`text:${field}`, (value) => (value === null ? undefined : readText(value, field, { allowEmpty: true })), { doc: { schema: { type: ['string', 'null'] } } });

/**
 * A field read by the domain's own reader, keeping what the reader answers: the DTO is then the
 * typed command itself (a normalised email, a question read into its parts) and nobody reads the
 * field again. Refusals are the reader's, in the class's field order, like `@Reads`. `optional`
 * lets an absent value through untouched; `skip` leaves the field unread (and unset) when an
 * earlier field of the DTO says so (a heartbeat reads nothing else). `read` also sees the DTO as
 * read so far, for a rule that depends on an earlier field (a move's `afterId` when `beforeId` wins).
 */
export function Keeps(
  name: string,
  read: (value: unknown, dto: object) => unknown,
  options: { optional?: boolean; doc?: FieldSchema; skip?: (dto: object) => boolean } = {},
): PropertyDecorator {
  return (target, key) =>
    FieldRule(
      name,
      (value, dto) => {
        if (options.skip?.(dto)) {
          (dto as Record<string | symbol, unknown>)[key] = undefined;
          return null;
        }
        if (options.optional && value === undefined) return null;
        let kept: unknown;
        const refusal = refusalOf(() => {
          kept = read(value, dto);
        });
        // The pipe checks each field once, in order: a passing check leaves the read value in place.
        if (refusal === null) (dto as Record<string | symbol, unknown>)[key] = kept;
        return refusal;
      },
      options.doc,
    )(target, key);
}

/**
 * A field the contract checks after stored state (a key's clash, the property a rule names): read
 * here once, never refused here. The DTO keeps the reader's answer or its refusal (kernel `InTurn`)
 * and the domain takes it with `inTurn` where the contract checks the field. Absent stays absent
 * (undefined) unless `absent: 'read'`, for a field whose absence has its own refusal.
 */
export function KeepsInTurn(
  name: string,
  read: (value: unknown, dto: object) => unknown,
  options: { doc?: FieldSchema; absent?: 'read' } = {},
): PropertyDecorator {
  return Keeps(name, (value, dto) => (value === undefined && options.absent !== 'read' ? undefined : readInTurn(() => read(value, dto))), { doc: options.doc });
}

/**
 * An id of a `kind` (`That is not a run id.`), absent or null passing: the DTO holds it as read,
 * in lower case as every store compares it, so the service takes it as it is.
 */
export const ReadIdField = (kind: IdKind): PropertyDecorator =>
  Keeps(`id:${kind}`, (value) => (value === undefined || value === null ? value : parseId(value, kind)), {
    doc: { schema: { type: ['string', 'null'], format: 'uuid', description: `A ${kind} id.` }, required: false },
  });
