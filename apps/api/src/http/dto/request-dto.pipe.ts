import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { getMetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';
import { DomainError } from '@board/kernel';
import { bodyObject } from '../json-body';
import { transformOf, type FieldTransform, type Refusal } from './field-rules';

/** A field rule as class-validator keeps it: its metadata and the constraint that checks it. */
interface FieldCheck {
  constraints: unknown[];
  validate(value: unknown, args: ValidationArguments): boolean;
  message(args: ValidationArguments): string;
}

/** What the pipe does with one declared field, in the class's order. */
interface FieldPlan {
  key: string;
  transform: FieldTransform | undefined;
  checks: FieldCheck[];
}

const plans = new WeakMap<object, FieldPlan[]>();

/**
 * The fields of a DTO class with their transform and rules, read once from the decorators'
 * metadata (class-validator's and the field rules' own). Plain types declare none: an empty plan.
 * The pipe runs only field rules (`ValidateBy`, all of field-rules.ts); a class that declares
 * another kind of class-validator rule is refused here, loudly, rather than half-checked.
 */
function planOf(metatype: unknown): FieldPlan[] {
  if (typeof metatype !== 'function') return [];
  let plan = plans.get(metatype);
  if (plan) return plan;
  const storage = getMetadataStorage();
  const byField = new Map<string, FieldPlan>();
  for (const meta of storage.getTargetValidationMetadatas(metatype, '', true, false)) {
    if (meta.type !== ValidationTypes.CUSTOM_VALIDATION || meta.each || (meta.groups?.length ?? 0) > 0 || meta.message !== undefined) {
      throw new Error(`${metatype.name}.${meta.propertyName}: the request pipe runs field rules only (apps/api/src/http/dto/field-rules.ts)`);
    }
    const field = byField.get(meta.propertyName) ?? { key: meta.propertyName, transform: transformOf(metatype as new () => object, meta.propertyName), checks: [] };
    for (const constraint of storage.getTargetValidatorConstraints(meta.constraintCls)) {
      const rule = constraint.instance as { validate(value: unknown, args: ValidationArguments): boolean; defaultMessage(args: ValidationArguments): string };
      field.checks.push({ constraints: meta.constraints, validate: (v, a) => rule.validate(v, a), message: (a) => rule.defaultMessage(a) });
    }
    byField.set(meta.propertyName, field);
  }
  plan = [...byField.values()];
  plans.set(metatype, plan);
  return plan;
}

const isDto = (metatype: unknown): metatype is new () => object => planOf(metatype).length > 0;

/**
 * The global pipe of request DTOs: a `@Body()` or `@Query()` typed with a DTO class is read
 * (a body must be a JSON object, none reads as `{}`), transformed (trim, truthiness) and checked.
 * The first failure in the order of the class's fields, which mirrors the contract's order of
 * checks, is raised as the `DomainError` the catalog maps: the answer is the contract's sentence.
 */
@Injectable()
export class RequestDtoPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if ((metadata.type !== 'body' && metadata.type !== 'query') || !isDto(metadata.metatype)) return value;
    return parseRequest(metadata.metatype, metadata.type === 'body' ? bodyObject(value) : (value ?? {}));
  }
}

/**
 * Reads `plain` into a DTO, raising its first refusal. For a route whose contract checks a gate
 * inside the service before the body (the author of a comment), the service calls this after it.
 *
 * It runs the class's own decorators, compiled once per class: each declared field's transform,
 * then its rules in order, stopping at the first refusal — what `plainToInstance` followed by
 * `validateSync({ stopAtFirstError: true })` does (request-dto.equal.spec.ts proves it equal on random bodies for every DTO), without their walk of
 * the whole metadata store on every request (bench/README.md, issue 16).
 */
export function parseRequest<T extends object>(dto: new () => T, plain: unknown): T {
  const source = (plain ?? {}) as Record<string, unknown>;
  const instance = new dto();
  const fields = instance as Record<string, unknown>;
  const plan = planOf(dto);
  // Only the declared fields are read: a `__proto__` or `constructor` key of the JSON is never
  // copied, and keys no route reads stay ignored.
  for (const field of plan) {
    if (!Object.prototype.hasOwnProperty.call(source, field.key)) continue;
    const value = source[field.key];
    fields[field.key] = field.transform ? field.transform(value) : value;
  }
  for (const field of plan) {
    const value = fields[field.key];
    for (const check of field.checks) {
      const args: ValidationArguments = { targetName: dto.name, property: field.key, object: instance, value, constraints: check.constraints };
      if (!check.validate(value, args)) throw refusalError(check.message(args));
    }
  }
  return instance;
}

/** The refusal a field rule's message carries (field-rules.ts), as the catalog's error. */
export function refusalError(message: string | undefined): DomainError {
  if (message === undefined) return new DomainError('request.not_json');
  const refusal = JSON.parse(message) as Refusal;
  return new DomainError(refusal.code, refusal.params ?? {});
}
