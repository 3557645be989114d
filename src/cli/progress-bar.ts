/** Where a progress bar draws: stderr, and whether it is a terminal. */
export interface ProgressSink {
  write: (text: string) => void;
  /** Only a terminal gets a bar; anywhere else (a pipe, a file, CI logs) nothing is drawn. */
  tty: boolean;
}

/** A bar redrawn in place on a terminal; every method does nothing elsewhere. */
export interface ProgressBar {
  /** Redraw with `done` of the total, and a short detail such as `3 passed · 1 failed`. */
  update(done: number, detail?: string): void;
  /** Erase the bar, so what follows starts on a clean line. */
  finish(): void;
}

/** The process's stderr as a progress sink. */
export function stderrSink(): ProgressSink {
  return { write: (text) => process.stderr.write(text), tty: process.stderr.isTTY === true };
}

/**
 * A one-line progress bar for long CLI work (eval, memory imports, model downloads, replay). It goes to
 * stderr only, so stdout stays clean for answers and JSON, and only to a terminal.
 *
 * @example
 * const bar = createProgressBar({ sink: stderrSink(), label: 'eval', total: 20 });
 * bar.update(3, '3 passed · 0 failed');
 * bar.finish();
 */
export function createProgressBar(options: {
  sink: ProgressSink;
  label: string;
  total?: number;
  width?: number;
  /** How counts read, e.g. bytes as MB. Default: the number. */
  unit?: (n: number) => string;
}): ProgressBar {
  const { sink, label, total } = options;
  const unit = options.unit ?? String;
  const width = options.width ?? 24;
  if (!sink.tty) return { update() {}, finish() {} };
  let drawn = false;
  return {
    update(done, detail) {
      const count = total ? `${unit(done)}/${unit(total)}` : unit(done);
      const filled = total ? Math.min(width, Math.round((done / total) * width)) : 0;
      const bar = total ? ` [${'#'.repeat(filled)}${'-'.repeat(width - filled)}]` : '';
      sink.write(`\r\x1b[K${label}${bar} ${count}${detail ? ` · ${detail}` : ''}`);
      drawn = true;
    },
    finish() {
      if (drawn) sink.write('\r\x1b[K');
      drawn = false;
    },
  };
}
