import pc from 'picocolors';

type Colors = ReturnType<typeof pc.createColors>;

/**
 * Whether to colour what goes to `stream`: never with NO_COLOR (or `--no-color`, which sets it), always
 * with FORCE_COLOR (or `--color`), else only on a terminal that is not `TERM=dumb`.
 */
export function useColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** picocolors for `stream`, on or off by `useColor`. */
export function colorsFor(stream: { isTTY?: boolean }): Colors {
  return pc.createColors(useColor(stream));
}
