/**
 * The project's usage read (extensions.md § 1.4) as a small text table for a terminal: one row per
 * agent (the read's order: highest cost first), a total row, numbers right-aligned, cost in the
 * team's currency (the read's millionths divided out). Used by `board-agent usage --report`.
 */
import type { Usage } from '@board/client';
import { money } from './readable';

export function usageTable(read: Usage): string {
  const head = ['agent', 'runs', 'input tokens', 'output tokens', 'cost'];
  const line = (name: string, n: { runs: number; inputTokens: number; outputTokens: number; costMicros: number }) => [name, String(n.runs), String(n.inputTokens), String(n.outputTokens), money(n.costMicros)];
  const rows = [head, ...read.agents.map((a) => line(a.agent.name, a)), line('total', read.total)];
  const widths = head.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const format = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ').trimEnd();
  const title = `Usage ${read.from} to ${read.to}`;
  if (!read.agents.length) return `${title}: no usage reported.`;
  return [title, format(rows[0]), ...rows.slice(1, -1).map(format), format(rows[rows.length - 1])].join('\n');
}
