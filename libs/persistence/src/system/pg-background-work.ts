import { Injectable } from '@nestjs/common';
import { BackgroundWork } from '@board/kernel';
import { Database } from '../database';

/** Background work on the background pool (see `Database.background`). */
@Injectable()
export class PgBackgroundWork extends BackgroundWork {
  constructor(private readonly db: Database) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.db.background(work);
  }
}
