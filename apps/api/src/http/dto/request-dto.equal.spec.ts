/**
 * The pipe's compiled read (`parseRequest`) equals class-transformer's `plainToInstance`
 * followed by class-validator's `validateSync` (`parseRequestWithLibraries`) for every request
 * DTO of the app, on random bodies: the same refusal (code and params), or the same instance.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';
import { DomainError } from '@board/kernel';
import { expectSame } from '../../../../../test/support/same';
import { parseRequest, refusalError } from './request-dto.pipe';

const SRC = join(__dirname, '..', '..');
const SEED = Number(process.env.DTO_EQUAL_SEED ?? Date.now() % 2 ** 31);

type Dto = new () => object;

/** Every exported class of apps/api/src/<feature>/*.dto.ts that declares field rules. */
function requestDtos(): Dto[] {
  const out: Dto[] = [];
  for (const feature of readdirSync(SRC, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const file of readdirSync(join(SRC, feature.name)).filter((f) => f.endsWith('.dto.ts'))) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const exported = require(join(SRC, feature.name, file)) as Record<string, unknown>;
      for (const value of Object.values(exported)) {
        if (typeof value === 'function' && getMetadataStorage().getTargetValidationMetadatas(value, '', true, false).length > 0) out.push(value as Dto);
      }
    }
  }
  return out;
}

/** The same read through class-transformer and class-validator themselves: the reference. */
function parseRequestWithLibraries<T extends object>(dto: new () => T, plain: unknown): T {
  const source = (plain ?? {}) as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const key of fieldsOf(dto)) if (Object.prototype.hasOwnProperty.call(source, key)) picked[key] = source[key];
  const instance = plainToInstance(dto, picked);
  const errors = validateSync(instance, { stopAtFirstError: true, forbidUnknownValues: false });
  if (errors.length > 0) throw refusalError(Object.values(errors[0].constraints ?? {})[0]);
  return instance;
}

const fieldsOf = (dto: Dto): string[] => [...new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).map((m) => m.propertyName))];

type Outcome = { refused: { code: string; params: unknown } } | { read: { of: string; fields: Record<string, unknown> } } | { threw: string };

function outcome(read: () => object): Outcome {
  try {
    const instance = read();
    return { read: { of: instance.constructor.name, fields: { ...instance } } };
  } catch (error) {
    if (error instanceof DomainError) return { refused: { code: error.code, params: error.params } };
    return { threw: String(error) };
  }
}

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', '   ', ' padded ', 'pause', 'done', 'running', 'owner', 'admin', 'member', 'asc', 'desc', 'board', 'table', 'release', 'sprint', 'x'.repeat(401), 'y'.repeat(8001)),
  fc.uuid(),
  fc.uuid().map((u) => u.toUpperCase()),
);
const leaf = fc.oneof(text, fc.integer({ min: -5, max: 5 }), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null));
const value = fc.oneof({ weight: 4, arbitrary: leaf }, fc.array(leaf, { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 6 }), leaf, { maxKeys: 3 }));

describe('the request pipe reads every DTO as class-transformer and class-validator do', () => {
  const dtos = requestDtos();
  // Every field rule of every generated body makes its refusal, in the pipe and in the libraries, and
  // each took its stack, 100 frames deep under Jest: half the spec's time. Here a refusal is data (code
  // and params); no stack is read, so none is taken (a failure still says the body and the difference).
  const stackDepth = Error.stackTraceLimit;
  beforeAll(() => void (Error.stackTraceLimit = 0));
  afterAll(() => void (Error.stackTraceLimit = stackDepth));

  it('finds the app’s DTOs (a scan that reads none would pass for the wrong reason)', () => {
    expect(dtos.length).toBeGreaterThan(40);
    expect(dtos.map((d) => d.name)).toEqual(expect.arrayContaining(['AddCommentBody', 'ReportRunBody', 'PutValueBody', 'PastRunsQuery']));
  });

  it.each(dtos.map((dto) => [dto.name, dto] as const))('%s', (_name, dto) => {
    const fields = fieldsOf(dto);
    const body = fc.record(Object.fromEntries([...fields, 'extra', '__proto__'].map((k) => [k, value])), { requiredKeys: [] });
    fc.assert(
      fc.property(body, (generated) => {
        // What a request can carry: a body is parsed JSON, a query string's values are texts or lists of texts.
        const sent: unknown = JSON.parse(JSON.stringify(generated));
        expectSame(outcome(() => parseRequest(dto, sent)), outcome(() => parseRequestWithLibraries(dto, sent)));
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
});
