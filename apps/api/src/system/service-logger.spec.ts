import { Writable } from 'node:stream';
import { JsonServiceLogger, jsonLog } from './service-logger';

/** A JSON logger writing into an array, one parsed object per line. */
function capture(level: 'debug' | 'info' | 'warn' = 'info') {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  // pino writes synchronously to a plain stream's write().
  return { lines, logger: new JsonServiceLogger(jsonLog(level, sink)) };
}

describe('JSON log lines', () => {
  it('write Nest’s lines as objects: time, level by name, msg and context', () => {
    const { lines, logger } = capture();
    logger.log('ready', 'main');
    logger.warn('slow', 'database');
    expect(lines).toEqual([
      { level: 'info', time: expect.stringMatching(/Z$/), pid: process.pid, hostname: expect.any(String), context: 'main', msg: 'ready' },
      expect.objectContaining({ level: 'warn', context: 'database', msg: 'slow' }),
    ]);
  });

  it('keep an error’s stack, and an error object’s message', () => {
    const { lines, logger } = capture();
    logger.error('failed', 'Error: boom\n    at x', 'http');
    logger.error(new Error('broken'), 'http');
    expect(lines[0]).toMatchObject({ level: 'error', msg: 'failed', stack: 'Error: boom\n    at x', context: 'http' });
    expect(lines[1]).toMatchObject({ level: 'error', msg: 'broken', context: 'http', err: expect.objectContaining({ message: 'broken' }) });
  });

  it('keep Nest’s start-up chatter at debug, and honour the level', () => {
    const info = capture('info');
    info.logger.log('Mapped {/api/version, GET} route', 'RouterExplorer');
    info.logger.debug('detail', 'x');
    expect(info.lines).toEqual([]);
    const debug = capture('debug');
    debug.logger.log('Mapped {/api/version, GET} route', 'RouterExplorer');
    expect(debug.lines).toEqual([expect.objectContaining({ level: 'debug', context: 'RouterExplorer' })]);
  });

  it('never write a credential an object carries', () => {
    const { lines } = capture();
    const log = jsonLog('info', new Writable({ write: (c: Buffer, _e, done) => (lines.push(JSON.parse(c.toString())), done()) }));
    log.info({ req: { method: 'GET', url: '/api/x?token=svc_secret', headers: { authorization: 'Bearer svc_secret', cookie: 'service_session=s' } } }, 'r');
    log.info({ headers: { authorization: 'Bearer svc_secret' } }, 'h');
    expect(JSON.stringify(lines)).not.toContain('svc_secret');
    expect(JSON.stringify(lines)).not.toContain('service_session');
    expect(lines[0]).toMatchObject({ req: { method: 'GET', path: '/api/x' } });
  });
});
