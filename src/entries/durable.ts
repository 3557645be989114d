/**
 * `thinkflow/durable`: runs past their first life. `agent.fork(checkpoint, options)` is the usual way to
 * start a new run from a step of a checkpointed one (`onCheckpoint` and `resume` of `agent.run` keep and
 * continue it); `forkCheckpoint` builds that fork's checkpoint alone, and these are its option types.
 * `thinkflow runs fork` does the same from the command line.
 */
export { type ForkMessages, type ForkOptions, type ForkSource, forkCheckpoint } from '../agent/index.js';
