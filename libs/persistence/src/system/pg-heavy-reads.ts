import { Injectable } from '@nestjs/common';
import { HeavyReads } from '@board/kernel';
import { Database } from '../database';

/** Heavy-read slots as transaction advisory locks (see `Database.heavy` for why). */
@Injectable()
export class PgHeavyReads extends HeavyReads {
  constructor(private readonly db: Database) {
    super();
  }

  run<T>(callerId: string, work: () => Promise<T>): Promise<T> {
    return this.db.heavy(callerId, work);
  }
}
