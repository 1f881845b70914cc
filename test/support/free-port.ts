import { createServer } from 'node:net';

/** A port on 127.0.0.1 that nothing listens on (just now): for a server to start on, or an address that refuses. */
export const freePort = () =>
  new Promise<number>((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
