/** A one-line spinner on a TTY stream; does nothing when the stream is not a terminal. */
export interface Spinner {
  start(label: string): void;
  stop(): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export function createSpinner(stream: NodeJS.WriteStream): Spinner {
  let timer: NodeJS.Timeout | undefined;
  return {
    start(label) {
      if (!stream.isTTY || timer) return;
      let i = 0;
      timer = setInterval(() => {
        stream.write(`\r${FRAMES[i++ % FRAMES.length]} ${label}`);
      }, 80);
      timer.unref();
    },
    stop() {
      if (!timer) return;
      clearInterval(timer);
      timer = undefined;
      stream.write('\r\x1b[K');
    },
  };
}
