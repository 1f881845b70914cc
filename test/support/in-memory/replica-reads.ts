import { ReplicaReads, WriteTrack } from '@board/kernel';

/**
 * Read replicas for the service specs: no replica to wait for, unless a spec says how `settled`
 * resolves (the stream's `ready` waits on it). Every read runs as it is, tracking nothing.
 */
export class InMemoryReplicaReads extends ReplicaReads {
  constructor(
    readonly enabled = false,
    private readonly settles: () => Promise<void> = async () => undefined,
  ) {
    super();
  }

  track(): WriteTrack {
    return { wrote: null };
  }

  run<T>(_track: WriteTrack, _replica: boolean, work: () => Promise<T>): Promise<T> {
    return work();
  }

  settled(): Promise<void> {
    return this.settles();
  }
}
