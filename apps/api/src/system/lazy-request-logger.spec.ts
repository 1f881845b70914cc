import { Writable } from 'node:stream';
import type { Logger as Pino } from 'pino';
import { jsonLog } from './service-logger';
import { LazyRequestLogger } from './lazy-request-logger';

/** The service's JSON logger writing into an array, one parsed object per line. */
function capture(level: 'info' | 'warn') {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const parent = jsonLog(level, sink);
  const children = jest.spyOn(parent, 'child');
  return { lines, parent, children };
}

describe('a request’s logger made on first use', () => {
  it('makes no child for a request that writes nothing, nor for a line below the level', () => {
    const { lines, parent, children } = capture('warn');
    const log = new LazyRequestLogger(parent, { reqId: 'r1' }, { level: 'warn' });
    expect(log.isLevelEnabled('info')).toBe(false);
    expect(log.isLevelEnabled('warn')).toBe(true);
    expect(log.level).toBe('warn');
    log.info({ context: 'http' }, 'request');
    log.debug('detail');
    expect(children).not.toHaveBeenCalled();
    expect(log.madeChild).toBe(false);
    expect(lines).toEqual([]);
  });

  it('writes a line as the child would: with the request’s id, once per line, one child', () => {
    const { lines, parent, children } = capture('info');
    const log = new LazyRequestLogger(parent, { reqId: 'r2' }, { level: 'info' });
    log.info({ context: 'http', status: 200 }, 'request');
    log.error(new Error('broken'));
    expect(children).toHaveBeenCalledTimes(1);
    expect(lines).toEqual([
      expect.objectContaining({ level: 'info', reqId: 'r2', context: 'http', status: 200, msg: 'request' }),
      expect.objectContaining({ level: 'error', reqId: 'r2', msg: 'broken' }),
    ]);
    // The same as a child made at once writes.
    const eager = (parent as Pino).child({ reqId: 'r2' }, { level: 'info' });
    eager.info({ context: 'http', status: 200 }, 'request');
    const { time: _a, ...lazyLine } = lines[0];
    const { time: _b, ...eagerLine } = lines[2];
    expect(lazyLine).toEqual(eagerLine);
  });

  it('keeps a route’s own level apart from the service’s', () => {
    const { lines, parent } = capture('warn');
    const log = new LazyRequestLogger(parent, { reqId: 'r3' }, { level: 'info' });
    expect(log.isLevelEnabled('info')).toBe(true);
    log.info('said');
    expect(lines).toEqual([expect.objectContaining({ level: 'info', reqId: 'r3', msg: 'said' })]);
  });

  it('hands on its bindings and children', () => {
    const { lines, parent } = capture('info');
    const log = new LazyRequestLogger(parent, { reqId: 'r4' }, {});
    expect(log.bindings()).toEqual({ reqId: 'r4' });
    log.child({ part: 'x' }).warn('deep');
    expect(lines).toEqual([expect.objectContaining({ reqId: 'r4', part: 'x', msg: 'deep' })]);
  });
});
