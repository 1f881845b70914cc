import { Injectable } from '@nestjs/common';
import { ReplicaReads, WriteTrack } from '@board/kernel';
import { Database } from '../database';
import { DatabaseLanes } from '../lanes';
import { laterOf, PositionTrack, readWalPosition, WalPosition } from '../wal-position';

/** Read replicas through the Database's lanes and the router's measurements (see `Database.replica`). */
@Injectable()
export class PgReplicaReads extends ReplicaReads {
  constructor(
    private readonly db: Database,
    private readonly lanes: DatabaseLanes,
  ) {
    super();
  }

  get enabled(): boolean {
    return this.lanes.replicas.enabled;
  }

  track(sent: ReadonlyArray<string | undefined>): WriteTrack {
    return new PositionTrack(sent.reduce<WalPosition | null>((newest, text) => laterOf(newest, readWalPosition(text)), null));
  }

  run<T>(track: WriteTrack, replica: boolean, work: () => Promise<T>): Promise<T> {
    if (!(track instanceof PositionTrack)) throw new Error('a track of PgReplicaReads.track, please');
    return this.db.tracking(track, replica ? () => this.db.replica(work) : work);
  }

  settled(): Promise<void> {
    return this.lanes.replicas.settled();
  }
}
