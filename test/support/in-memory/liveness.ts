import { Liveness } from '@board/kernel';

/** This instance alone, alive: it holds whatever it claims, and no send of it is ever cut for a lost claim. */
export class AloneLiveness extends Liveness {
  claimant(): string | null {
    return 'this-instance';
  }
  holds(): boolean {
    return true;
  }
  signalOf(): AbortSignal {
    return new AbortController().signal;
  }
  onTakeover(): () => void {
    return () => undefined;
  }
}
