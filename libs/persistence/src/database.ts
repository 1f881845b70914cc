import { Injectable } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, QueryRunner } from 'typeorm';
import { UnitOfWork, UnitOfWorkOptions } from '@board/kernel';

export interface Rows<T> {
  rows: T[];
  count: number;
}

/**
 * The one gateway to PostgreSQL. Inside `transaction` every query of the same async flow runs on
 * the transaction's connection (AsyncLocalStorage), so repositories never pass a handle around.
 */
@Injectable()
export class Database extends UnitOfWork {
  private readonly current = new AsyncLocalStorage<QueryRunner>();

  constructor(readonly dataSource: DataSource) {
    super();
  }

  get inTransaction(): boolean {
    return this.current.getStore() !== undefined;
  }

  async run<T>(work: () => Promise<T>, options?: UnitOfWorkOptions): Promise<T> {
    return this.transaction(work, options);
  }

  async transaction<T>(work: () => Promise<T>, options: UnitOfWorkOptions = {}): Promise<T> {
    const open = this.current.getStore();
    if (open) {
      if (options.lockProject) await this.lockProject(open, options.lockProject);
      return work();
    }
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect();
      await runner.startTransaction();
      try {
        const result = await this.current.run(runner, async () => {
          if (options.lockProject) await this.lockProject(runner, options.lockProject);
          return work();
        });
        await runner.commitTransaction();
        return result;
      } catch (error) {
        if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.release().catch(() => undefined);
    }
  }

  /** Rows and affected count of one statement. */
  async exec<T = Record<string, any>>(sql: string, params: unknown[] = []): Promise<Rows<T>> {
    const open = this.current.getStore();
    if (open) return toRows<T>(await open.query(sql, params, true));
    const runner = this.dataSource.createQueryRunner();
    try {
      return toRows<T>(await runner.query(sql, params, true));
    } finally {
      await runner.release().catch(() => undefined);
    }
  }

  async query<T = Record<string, any>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.exec<T>(sql, params)).rows;
  }

  async one<T = Record<string, any>>(sql: string, params: unknown[] = []): Promise<T | null> {
    return (await this.exec<T>(sql, params)).rows[0] ?? null;
  }

  private async lockProject(runner: QueryRunner, projectId: string): Promise<void> {
    // hashtextextended maps the uuid onto the bigint key space of advisory locks.
    await runner.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 7))`, [projectId]);
  }
}

function toRows<T>(result: { records?: unknown[]; affected?: number }): Rows<T> {
  return { rows: (result.records ?? []) as T[], count: result.affected ?? 0 };
}

/** PostgreSQL error code of a failed statement (23505 unique violation, …), if any. */
export function pgErrorCode(error: unknown): { code?: string; constraint?: string } {
  const e = error as { driverError?: { code?: string; constraint?: string }; code?: string; constraint?: string };
  return { code: e?.driverError?.code ?? e?.code, constraint: e?.driverError?.constraint ?? e?.constraint };
}
