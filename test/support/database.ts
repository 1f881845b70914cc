import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { MigrationInterface } from 'typeorm';
import { createDataSource } from '@board/persistence';

/** The server the run talks to (global-setup put it in the environment). */
export function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run the tests through jest (npm test)');
  return url;
}

export function databaseUrl(name: string): string {
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: serverUrl() });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database of its own for one test file. */
export async function createDatabase(): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `tb_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  return {
    name,
    url: databaseUrl(name),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** Runs one step of a migration on the database at `url`, on a connection of its own (for tests of what a migration does to rows). */
export async function migrationStep(url: string, migration: MigrationInterface, step: 'up' | 'down'): Promise<void> {
  const dataSource = await createDataSource({ url, poolSize: 1 }).initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await migration[step](runner);
  } finally {
    await runner.release();
    await dataSource.destroy();
  }
}
