import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync, type ValidationError } from 'class-validator';
import { DomainError } from '@board/kernel';
import { bodyObject } from '../json-body';
import type { Refusal } from './field-rules';

const known = new WeakMap<object, string[]>();

/** The fields a DTO class declares: every field carries one rule (plain types declare none). */
function fieldsOf(metatype: unknown): string[] {
  if (typeof metatype !== 'function') return [];
  let fields = known.get(metatype);
  if (!fields) {
    fields = [...new Set(getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false).map((m) => m.propertyName))];
    known.set(metatype, fields);
  }
  return fields;
}
const isDto = (metatype: unknown): metatype is new () => object => fieldsOf(metatype).length > 0;

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
 */
export function parseRequest<T extends object>(dto: new () => T, plain: unknown): T {
  // Only the declared fields are read: a `__proto__` or `constructor` key of the JSON never
  // reaches class-transformer, and keys no route reads stay ignored as before.
  const source = (plain ?? {}) as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const key of fieldsOf(dto)) if (Object.prototype.hasOwnProperty.call(source, key)) picked[key] = source[key];
  const instance = plainToInstance(dto, picked);
  const errors = validateSync(instance, { stopAtFirstError: true, forbidUnknownValues: false });
  if (errors.length > 0) throw refusalError(errors[0]);
  return instance;
}

function refusalError(error: ValidationError): DomainError {
  const message = Object.values(error.constraints ?? {})[0];
  if (message === undefined) return new DomainError('request.not_json');
  const refusal = JSON.parse(message) as Refusal;
  return new DomainError(refusal.code, refusal.params ?? {});
}
