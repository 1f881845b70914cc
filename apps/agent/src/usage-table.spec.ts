import type { Usage } from '@board/client';
import { usageTable } from './usage-table';

const agent = (name: string, costMicros: number, runs: number) => ({
  agent: { id: name, name, color: '#000000', emoji: null },
  inputTokens: 1000 * runs,
  outputTokens: 10 * runs,
  costMicros,
  runs,
  daily: [costMicros],
});

describe('usageTable', () => {
  it('prints one row per agent in the read’s order and a total, numbers right-aligned, cost in currency units', () => {
    const read = {
      from: '2026-11-01',
      to: '2026-11-26',
      days: ['2026-11-26'],
      total: { inputTokens: 13000, outputTokens: 130, costMicros: 1_250_000, runs: 13 },
      agents: [agent('Claudia', 1_200_000, 12), agent('Bo', 50_000, 1)],
    } as unknown as Usage;
    expect(usageTable(read).split('\n')).toEqual([
      'Usage 2026-11-01 to 2026-11-26',
      'agent    runs  input tokens  output tokens    cost',
      'Claudia    12         12000            120  1.2000',
      'Bo          1          1000             10  0.0500',
      'total      13         13000            130  1.2500',
    ]);
  });

  it('says so when nobody reported usage', () => {
    const read = { from: '2026-11-01', to: '2026-11-26', days: [], total: { inputTokens: 0, outputTokens: 0, costMicros: 0, runs: 0 }, agents: [] } as unknown as Usage;
    expect(usageTable(read)).toBe('Usage 2026-11-01 to 2026-11-26: no usage reported.');
  });
});
