/** The CLI's exit codes (documented in README › Agents › board-agent); stable, scripts branch on them. */
export const EXIT = {
  ok: 0,
  /** The service refused the call (400, 403, 404, 409 other than a closed run): the sentence is printed. */
  refused: 1,
  /** Wrong use: arguments, BOARD_URL / BOARD_TOKEN unset, no current run. */
  usage: 2,
  /** The token is not valid (401) or belongs to another project (403). */
  badToken: 3,
  /** The run is closed: its lease ran out (lost) or it already ended. Claim again to go on. */
  closed: 4,
  /** A person asked the run to stop, or took the task over: stop working on it. */
  stopped: 5,
  /** A person asked the run to pause: beat until the control word is `resume` (still printed on stdout). */
  paused: 6,
  /** The service could not be reached (network, DNS, refused connection). */
  network: 7,
  /** `ask` got no answer within --timeout. */
  noAnswer: 8,
  /** `next` found no task left in the queue for this agent (nothing was claimed). */
  nothingLeft: 9,
} as const;
