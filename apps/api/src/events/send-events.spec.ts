import { EventEmitter } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MAX_BUFFERED_BYTES, sendEvents } from './send-events';
import type { StreamSink } from './stream.service';

/** A response socket whose unsent bytes pile up as long as the client does not read. */
function fakeSocket() {
  const raw = Object.assign(new EventEmitter(), {
    head: 0,
    written: [] as string[],
    writableLength: 0,
    ended: false,
    destroyed: false,
    writeHead: () => void raw.head++,
    write(bytes: Buffer) {
      raw.written.push(bytes.toString());
      raw.writableLength += bytes.length;
      return raw.writableLength < 16 * 1024;
    },
    end: () => void (raw.ended = true),
    destroy: () => {
      raw.destroyed = true;
      request.raw.emit('close');
    },
  });
  const request = { raw: new EventEmitter() };
  const reply = { raw, hijack: () => undefined };
  return { raw, request: request as unknown as FastifyRequest, reply: reply as unknown as FastifyReply };
}

describe('sendEvents', () => {
  function start() {
    const socket = fakeSocket();
    let sink!: StreamSink;
    const stopped = jest.fn();
    sendEvents(socket.request, socket.reply, (s) => {
      sink = s;
      return stopped;
    });
    return { ...socket, sink: () => sink, stopped };
  }

  it('writes the lines, stops the stream when the client goes, and ends the answer when the server ends the stream', () => {
    const s = start();
    s.sink().next(Buffer.from('event: ready\ndata: {}\n\n'));
    expect(s.raw.written).toEqual(['event: ready\ndata: {}\n\n']);
    s.sink().complete();
    expect(s.raw.ended).toBe(true);
    s.request.raw.emit('close');
    expect(s.stopped).toHaveBeenCalledTimes(1);
  });

  it('drops a stream whose client does not read once its unsent lines pass the bound, instead of buffering without end', () => {
    const s = start();
    const line = Buffer.from(`event: change\ndata: {"pad":"${'x'.repeat(1000)}"}\n\n`);
    for (let i = 0; i < 1000; i++) s.sink().next(line);
    expect(s.raw.destroyed).toBe(true);
    expect(s.stopped).toHaveBeenCalled();
    expect(s.raw.writableLength).toBeLessThanOrEqual(MAX_BUFFERED_BYTES + line.length);
    expect(s.raw.written.length).toBeLessThan(100);
  });

  it('keeps a stream whose client reads', () => {
    const s = start();
    for (let i = 0; i < 1000; i++) {
      s.sink().next(Buffer.from(`event: change\ndata: {"pad":"${'x'.repeat(1000)}"}\n\n`));
      s.raw.writableLength = 0;
    }
    expect(s.raw.destroyed).toBe(false);
    expect(s.raw.written).toHaveLength(1000);
  });

  it('writes the lines of a chunked answer straight to its socket, each framed as one HTTP chunk, and bounds the socket’s unsent bytes', () => {
    const s = fakeSocket();
    const socket = { written: [] as Buffer[], writableLength: 0, write: (b: Buffer) => void socket.written.push(b) };
    Object.assign(s.raw, { chunkedEncoding: true, headersSent: true, socket });
    let sink!: StreamSink;
    sendEvents(s.request, s.reply, (given) => ((sink = given), () => undefined));
    const line = Buffer.from('event: ready\ndata: {"é":1}\n\n');
    sink.next(line);
    sink.next(line);
    expect(socket.written.map(String)).toEqual(Array(2).fill(`${line.length.toString(16)}\r\nevent: ready\ndata: {"é":1}\n\n\r\n`));
    expect(s.raw.written).toEqual([]);
    socket.writableLength = MAX_BUFFERED_BYTES + 1;
    sink.next(line);
    expect(socket.written).toHaveLength(2);
    expect(s.raw.destroyed).toBe(true);
  });
});
