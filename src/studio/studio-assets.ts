import { maybeNodeBuiltin } from '../core/index.js';

/** The bundled page script, built by `npm run build:studio` into `dist/studio-assets/`. */
export interface StudioAssets {
  /** The bundle, or undefined when it was not built (the page then says how to build it). */
  script: string | undefined;
}

/** The package root: the nearest folder above this module holding package.json (works from src/ and dist/). */
function packageRoot(fs: typeof import('node:fs'), path: typeof import('node:path')): string {
  const { existsSync } = fs;
  const { dirname, join } = path;
  const { fileURLToPath } = maybeNodeBuiltin('node:url')!;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('thinkflow studio: cannot find the package root.');
    dir = parent;
  }
  return dir;
}

/**
 * Reads the bundle once; a missing bundle is not an error until someone opens the page. Where the
 * runtime has no file system (a Worker, a browser) the bundle counts as missing.
 */
export function loadStudioAssets(): StudioAssets {
  const fs = maybeNodeBuiltin('node:fs');
  const path = maybeNodeBuiltin('node:path');
  if (!fs || !path || !import.meta.url.startsWith('file:')) return { script: undefined };
  const file = path.join(packageRoot(fs, path), 'dist', 'studio-assets', 'app.js');
  return { script: fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined };
}
