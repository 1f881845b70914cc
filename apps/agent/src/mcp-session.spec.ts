import type { AgentWork } from './agent-work';
import { McpAgent } from './mcp-session';

/** McpAgent's heartbeat timer against an AgentWork whose beats the test holds or lets through. */
describe('McpAgent beats', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const agentWith = (beat: (runId: string) => Promise<null>) => {
    const beats: string[] = [];
    const work = {
      beat: (runId: string) => {
        beats.push(runId);
        return beat(runId);
      },
    } as unknown as AgentWork;
    return { agent: new McpAgent(work, 100), beats };
  };
  const ONE = { runId: 'r1', taskId: 't1', taskKey: 'K-1' };
  const TWO = { runId: 'r2', taskId: 't2', taskKey: 'K-2' };

  it('beats every held run once a round, and starts no round while the last is on its way', async () => {
    const held: (() => void)[] = [];
    const { agent, beats } = agentWith(() => new Promise((resolve) => held.push(() => resolve(null))));
    agent.start(ONE);
    agent.start(TWO);
    await jest.advanceTimersByTimeAsync(100);
    expect(beats).toEqual(['r1']); // one beat at a time: the round waits for it
    await jest.advanceTimersByTimeAsync(1000);
    expect(beats).toEqual(['r1']);
    held.shift()?.();
    await jest.advanceTimersByTimeAsync(0);
    expect(beats).toEqual(['r1', 'r2']);
    held.shift()?.();
    await jest.advanceTimersByTimeAsync(100);
    expect(beats).toEqual(['r1', 'r2', 'r1']);
    agent.stopBeating();
  });

  it('leaves a run out of its rounds while an ask waits on it (the ask beats it), and takes it back after', async () => {
    const { agent, beats } = agentWith(async () => null);
    agent.start(ONE);
    agent.start(TWO);
    let answer: (text: string) => void = () => undefined;
    const asking = agent.asking(ONE, () => new Promise<string>((resolve) => (answer = resolve)));
    await jest.advanceTimersByTimeAsync(300);
    expect(beats).toEqual(['r2', 'r2', 'r2']);
    answer('Fine.');
    expect(await asking).toBe('Fine.');
    beats.length = 0;
    await jest.advanceTimersByTimeAsync(100);
    expect(beats.sort()).toEqual(['r1', 'r2']);
    agent.stopBeating();
  });
});
