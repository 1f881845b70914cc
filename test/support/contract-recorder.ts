import { appendFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** One answer an e2e suite saw: what the contract test (test/contract) checks against the API document. */
export interface RecordedAnswer {
  method: string;
  /** The path as called, without the query string and without the `/api` prefix the client adds. */
  path: string;
  status: number;
  contentType: string | null;
  body: unknown;
}

/**
 * Appends an answer to this suite's record file when the run records (`CONTRACT_RECORD_DIR`, set by
 * global-setup.js for every Jest run). One JSON line per answer, one file per suite and worker.
 */
export function recordAnswer(method: string, path: string, status: number, contentType: string | null, body: unknown): void {
  const dir = process.env.CONTRACT_RECORD_DIR;
  if (!dir) return;
  const suite = (typeof expect === 'undefined' ? undefined : (expect.getState().testPath as string | undefined)) ?? 'unknown';
  const line: RecordedAnswer = { method: method.toUpperCase(), path: path.split('?')[0], status, contentType, body };
  appendFileSync(join(dir, `${basename(suite)}.${process.pid}.jsonl`), JSON.stringify(line) + '\n');
}
