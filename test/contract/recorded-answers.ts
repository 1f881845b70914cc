import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenApiDocument } from '../../apps/api/src/openapi/document';
import type { RecordedAnswer } from '../support/contract-recorder';

/** A documented route, its path as a pattern. */
interface Template {
  method: string;
  path: string;
  pattern: RegExp;
  params: number;
}

export interface ContractReport {
  /** One line per (route, status, schema error), naming a suite where it was seen. */
  failures: string[];
  /** `METHOD /api/path` of every documented route some suite called. */
  called: Set<string>;
  answers: number;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function templatesOf(document: OpenApiDocument): Template[] {
  const out: Template[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const source = path.split(/\{[^}]+\}/).map(escape).join('[^/]+');
    for (const method of Object.keys(item)) {
      out.push({ method: method.toUpperCase(), path, pattern: new RegExp(`^${source}$`), params: (path.match(/\{/g) ?? []).length });
    }
  }
  // A literal segment wins over a parameter (`/tasks/values` before `/tasks/{taskId}`).
  return out.sort((a, b) => a.params - b.params);
}

/** The documented route an answer belongs to, or undefined when none matches (a router 404). */
export function routeOf(templates: Template[], method: string, apiPath: string): Template | undefined {
  return templates.find((t) => t.method === method && t.pattern.test(apiPath));
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Reads every record file in `dir` and checks each answer against the document with ajv (2020-12). */
export function checkRecordedAnswers(document: OpenApiDocument, dir: string): ContractReport {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  ajv.addSchema(document as object, 'api');
  const templates = templatesOf(document);
  const failures = new Map<string, string>();
  const called = new Set<string>();
  let answers = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
    const suite = file.replace(/\.\d+\.jsonl$/, '');
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line) continue;
      const answer = JSON.parse(line) as RecordedAnswer;
      const apiPath = `/api${answer.path}`;
      const route = routeOf(templates, answer.method, apiPath);
      if (!route) continue;
      answers++;
      const name = `${route.method} ${route.path}`;
      called.add(name);
      const operation = document.paths[route.path][route.method.toLowerCase()];
      const listed = operation.responses[String(answer.status)];
      // A shared response (`#/components/responses/ErrorNNN`) is checked against its own schema.
      const shared = listed?.$ref?.replace('#/components/responses/', '');
      const response = shared ? (document.components as { responses: Record<string, typeof listed> }).responses[shared] : listed;
      const at = shared ? ['components', 'responses', shared] : ['paths', route.path, route.method.toLowerCase(), 'responses', String(answer.status)];
      if (!response) {
        const key = `${name} ${answer.status}: the document lists no ${answer.status} answer for this route`;
        if (!failures.has(key)) failures.set(key, `${key} (seen in ${suite}: ${JSON.stringify(answer.body).slice(0, 200)})`);
        continue;
      }
      const media = Object.keys(response.content ?? {})[0];
      if (!media || media !== 'application/json') continue;
      const ref = `api#/${pointer(...at, 'content', media, 'schema')}`;
      const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
      if (!validate(answer.body)) {
        const error = validate.errors?.[0];
        const where = error ? `${error.instancePath || '(body)'} ${error.message}${error.params ? ' ' + JSON.stringify(error.params) : ''}` : 'invalid';
        const key = `${name} ${answer.status}: ${where}`;
        if (!failures.has(key)) failures.set(key, `${key} (seen in ${suite}: ${JSON.stringify(answer.body).slice(0, 300)})`);
      }
    }
  }
  return { failures: [...failures.values()], called, answers };
}
