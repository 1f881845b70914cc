import { Clock } from '@board/kernel';

/** A clock that says what it is told (service specs). */
export class FixedClock extends Clock {
  constructor(public at: Date = new Date('2026-03-02T10:00:00.000Z')) {
    super();
  }

  now(): Date {
    return new Date(this.at);
  }
}
