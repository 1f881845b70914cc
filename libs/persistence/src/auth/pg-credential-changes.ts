import { Injectable } from '@nestjs/common';
import { Database } from '../database';
import { CredentialChanges } from './credential-changes';

/** The commits `Database.credentialsChanged` marked, told by the database gateway after COMMIT. */
@Injectable()
export class PgCredentialChanges extends CredentialChanges {
  constructor(private readonly db: Database) {
    super();
  }

  watch(watcher: () => void): () => void {
    return this.db.watchCredentials(watcher);
  }
}
