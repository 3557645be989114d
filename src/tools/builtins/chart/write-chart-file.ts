import { constants } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { readableFileError } from '../files/readable-file-error.js';
import { confirmFolderUnchanged, isInside, resolveInRootOrThrow } from '../files/resolve-in-root.js';

/** Where chart files go: the output folder, and the root it must stay inside when it lies in it. */
export interface ChartOutput {
  root: string;
  outDir: string;
}

/**
 * Writes one chart file to `outDir` and returns the name to show: relative to the root when inside it,
 * else the absolute path. When `outDir` is inside the root (the default
 * `<root>/charts`), the file's path is resolved like a files-tool write, so a symbolic link the model moved
 * into place (a `charts` folder, or `charts/bar-….svg`, pointing outside) is refused rather than written
 * through. In every case the file is opened with O_NOFOLLOW and must be a regular file.
 */
export async function writeChartFile(output: ChartOutput, name: string, content: string | Uint8Array): Promise<string> {
  const lexical = path.join(output.outDir, name);
  try {
    let target = lexical;
    let shown = lexical;
    if (isInside(output.root, lexical)) {
      const relative = path.relative(output.root, lexical);
      await mkdir(path.dirname((await resolveInRootOrThrow(output.root, relative, { purpose: 'write' })).path), {
        recursive: true,
      });
      const resolved = await resolveInRootOrThrow(output.root, relative, { purpose: 'write' });
      await confirmFolderUnchanged(resolved, relative);
      target = resolved.path;
      shown = resolved.relative;
    } else {
      await mkdir(output.outDir, { recursive: true });
    }
    const flags =
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW | constants.O_NONBLOCK;
    const handle = await open(target, flags);
    try {
      if (!(await handle.stat()).isFile()) throw new Error(`"${name}" in the chart folder is not a regular file.`);
      await handle.writeFile(content);
    } finally {
      await handle.close();
    }
    return shown;
  } catch (error) {
    throw readableFileError(error, path.relative(output.root, lexical) || name);
  }
}
