import { BoardApiError, type BoardClient } from '@board/client';
import { AgentWork, OUTAGE_MS, passing, plainHttpWarning } from './agent-work';

describe('plainHttpWarning', () => {
  it('warns for plain http:// to a host that is not this machine', () => {
    for (const url of ['http://board.example.com', 'http://10.0.0.5:3000', 'http://[fd00::2]:3000', 'http://localhost.example.com']) {
      expect(plainHttpWarning(url)).toMatch(/^BOARD_URL is plain http:\/\/ to .+, which is not this machine/);
    }
    expect(plainHttpWarning('http://board.example.com:8080/x')).toContain('board.example.com:8080');
  });

  it('says nothing for https, nor for loopback', () => {
    for (const url of ['https://board.example.com', 'http://localhost:3000', 'http://LOCALHOST', 'http://127.0.0.1:3000', 'http://127.1.2.3', 'http://[::1]:3000', 'http://board.localhost']) {
      expect(plainHttpWarning(url)).toBeNull();
    }
  });
});

/**
 * AgentWork.ask against a board client held in the test: a question sent, beats and reads of the
 * task answered as each test says, a stream that says `ready` once and then stays quiet.
 */
describe('AgentWork.ask', () => {
  const RUN = 'run-1';
  const TASK = 'task-1';
  const QUESTION = { id: 'q-1', askedAt: '2026-11-27T08:00:00.000Z', answer: null as null | { text: string; choices: string[] | null; by: { name: string } } };

  const board = (beat: () => Promise<unknown>) => {
    const calls = { beats: 0, reads: 0, reports: [] as unknown[] };
    const question = { ...QUESTION };
    const client = {
      agentMe: async () => ({ agent: { id: 'agent-1' }, project: { id: 'p-1', name: 'P' } }),
      report: async (_runId: string, body: unknown) => {
        calls.reports.push(body);
        return { run: { id: RUN, question }, control: null };
      },
      beat: async () => {
        calls.beats++;
        await beat();
        return { run: { id: RUN }, control: null };
      },
      task: async () => {
        calls.reads++;
        return { id: TASK, run: { id: RUN, question }, comments: [] };
      },
      run: async () => ({ id: RUN, status: 'lost' }),
      stream: async function* (_projectId: string, options: { signal: AbortSignal }) {
        yield { type: 'ready', data: {} };
        await new Promise((resolve) => options.signal.addEventListener('abort', resolve));
      },
    };
    const work = new AgentWork(client as unknown as BoardClient, 10);
    return { work, calls, answer: (text: string) => (question.answer = { text, choices: null, by: { name: 'Olive' } }) };
  };
  const busy = () => new BoardApiError(503, 'The server is busy. Try again in a moment.');

  it('waits on through beats the service answers busy or cannot take, and gives the answer that comes', async () => {
    let failing = 4;
    const { work, calls, answer } = board(async () => {
      if (failing-- > 0) throw failing % 2 ? busy() : new BoardApiError(0, 'Could not reach the board service: ECONNRESET');
      answer('Tuesday.');
    });
    const answered = await work.ask(RUN, TASK, { text: 'Which day?' });
    expect(answered).toEqual({ text: 'Tuesday.', choices: null, by: 'Olive', via: 'answer' });
    expect(calls.beats).toBe(5);
    expect(calls.reports.at(-1)).toEqual({ status: 'running' });
  });

  it('ends the wait at once when a beat says the run is closed, with why', async () => {
    const { work } = board(async () => {
      throw new BoardApiError(409, 'That run is closed.');
    });
    await expect(work.ask(RUN, TASK, { text: 'Which day?' })).rejects.toMatchObject({ kind: 'lost' });
  });

  it('ends the wait at once on a refusal that is not about load (a revoked token)', async () => {
    const { work, calls } = board(async () => {
      throw new BoardApiError(401, 'Sign in first, or send an agent token.');
    });
    await expect(work.ask(RUN, TASK, { text: 'Which day?' })).rejects.toThrow('Sign in first, or send an agent token.');
    expect(calls.beats).toBe(1);
  });

  it('ends the wait with the last failure once the service has been busy for OUTAGE_MS', async () => {
    jest.useFakeTimers();
    try {
      const { work, calls } = board(async () => {
        throw busy();
      });
      const waiting = work.ask(RUN, TASK, { text: 'Which day?' });
      const outcome = waiting.then(
        () => 'answered',
        (error: Error) => error.message,
      );
      await jest.advanceTimersByTimeAsync(OUTAGE_MS - 20);
      expect(calls.beats).toBeGreaterThan(100);
      await jest.advanceTimersByTimeAsync(40);
      expect(await outcome).toBe('The server is busy. Try again in a moment.');
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('passing', () => {
  it('is true of the service busy, overloaded or out of reach, false of refusals about the call', () => {
    for (const status of [0, 429, 502, 503, 504]) expect(passing(new BoardApiError(status, 'x'))).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 500]) expect(passing(new BoardApiError(status, 'x'))).toBe(false);
    expect(passing(new Error('x'))).toBe(false);
  });
});
