import { Clock } from '@board/kernel';

/** A clock that moves only when told: specs read times they set. */
export class SteppedClock extends Clock {
  constructor(private at = new Date('2026-03-02T10:00:00.000Z')) {
    super();
  }

  now(): Date {
    return new Date(this.at);
  }

  advance(ms: number): Date {
    this.at = new Date(this.at.getTime() + ms);
    return this.now();
  }
}

/** The real time moved by an offset the test sets (ahead to pass a window, behind to hold work off). */
export class OffsetClock extends Clock {
  offset = 0;

  now(): Date {
    return new Date(Date.now() + this.offset);
  }

  advance(ms: number): void {
    this.offset += ms;
  }
}
