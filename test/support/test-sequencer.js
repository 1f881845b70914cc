// Jest's own order (failed first, then longest first), except that the suites which measure the
// event loop run before every other suite. `--runInBand` runs all of them in one process, and by
// the end the heap holds what hundreds of suites left behind: the collector's steps on the main
// thread then take far longer than the same request's work on a fresh instance (a cold 50,000-task
// board read blocked 54–56 ms alone and 108 ms after 160 suites), which measures the test run, not
// the service.
const Sequencer = require('@jest/test-sequencer').default;

const FIRST = [/board-event-loop\.test\.ts$/];

class LoopProbesFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const first = sorted.filter((t) => FIRST.some((pattern) => pattern.test(t.path)));
    return [...first, ...sorted.filter((t) => !first.includes(t))];
  }
}

module.exports = LoopProbesFirst;
