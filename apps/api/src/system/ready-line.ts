import type { AddressInfo } from 'node:net';

/**
 * The address a person can open, from where the server really listens (PORT=0 picks a port): a
 * wildcard host (0.0.0.0, ::) cannot be opened, so this machine's loopback name stands in for it.
 */
export function openableUrl(address: AddressInfo | string | null, fallback: { host: string; port: number }): string {
  const listened = address && typeof address === 'object' ? address : { address: fallback.host, port: fallback.port };
  const host = ['0.0.0.0', '::', ''].includes(listened.address) ? '127.0.0.1' : listened.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${listened.port}/`;
}

/** The one line that says the start is over and where to go. */
export const readyLine = (url: string): string => `Task board is ready at ${url} — open it to create the first account`;

/** The last line of a stop that went as it should. */
export const STOPPED_LINE = 'Task board stopped.';
