/**
 * What thinkflow does when the reader of its stdout or stderr leaves (`thinkflow trace show run.jsonl |
 * head`, a log collector that restarts). A command that answers and ends stops quietly, with the exit
 * code it had, as a pipe's writer does, rather than with an unhandled EPIPE's stack trace. A service
 * (`serve`, `worker`, `studio`) keeps serving: its log lines have nowhere to go, but its runs go on (a
 * collector restarting must not end the server, nor end it with exit 0, which a supervisor reads as done).
 * Any other error of the streams stays an error.
 */
const GONE = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);
let serving = false;

/** Installs the handling on stdout and stderr (the CLI's entry point does, once). */
export function handleBrokenPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (!GONE.has(error.code ?? '')) throw error;
      if (!serving) process.exit(process.exitCode ?? 0);
    });
  }
}

/** From now on a reader that leaves does not end the process: it is a service. */
export function keepServingOnBrokenPipe(): void {
  serving = true;
}
