import { fail, readText } from '@board/kernel';

/** 10^15: past any real count, and still exact in a double and a bigint column. */
export const USAGE_MAX = 1_000_000_000_000_000;
export const MODEL_MAX = 100;

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  costMicros: number;
  model: string | null;
}

export interface UsageSent {
  inputTokens?: number;
  outputTokens?: number;
  costMicros?: number;
  model?: string;
}

export const NO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, costMicros: 0, model: null };
export const USAGE_COUNTS = ['inputTokens', 'outputTokens', 'costMicros'] as const;

/** `usage: { inputTokens?, outputTokens?, costMicros?, model? }`: the run's totals so far. */
export function readUsage(value: unknown): UsageSent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('run.usage_counts');
  const body = value as Record<string, unknown>;
  const sent: UsageSent = {};
  for (const name of USAGE_COUNTS) {
    const n = body[name];
    if (n === undefined || n === null) continue;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > USAGE_MAX) fail('run.usage_counts');
    sent[name] = n;
  }
  if (body.model !== undefined && body.model !== null) sent.model = readText(body.model, 'model', { max: MODEL_MAX, allowEmpty: true });
  return sent;
}

/** The new totals and what grew (booked on the report's day). A count below the kept total is refused. */
export function growUsage(kept: Usage, sent: UsageSent): { usage: Usage; increase: Omit<Usage, 'model'> } {
  const usage: Usage = { ...kept };
  const increase = { inputTokens: 0, outputTokens: 0, costMicros: 0 };
  for (const name of USAGE_COUNTS) {
    const n = sent[name];
    if (n === undefined) continue;
    if (n < kept[name]) fail('run.usage_shrinks');
    increase[name] = n - kept[name];
    usage[name] = n;
  }
  if (sent.model !== undefined) usage.model = sent.model || null;
  return { usage, increase };
}

export const grew = (increase: Omit<Usage, 'model'>): boolean => increase.inputTokens > 0 || increase.outputTokens > 0 || increase.costMicros > 0;
