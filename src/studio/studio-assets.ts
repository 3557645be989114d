import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bundled page script, built by `npm run build:studio` into `dist/studio-assets/`. */
export interface StudioAssets {
  /** The bundle, or undefined when it was not built (the page then says how to build it). */
  script: string | undefined;
}

/** The package root: the nearest folder above this module holding package.json (works from src/ and dist/). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('thinkflow studio: cannot find the package root.');
    dir = parent;
  }
  return dir;
}

/** Reads the bundle once; a missing bundle is not an error until someone opens the page. */
export function loadStudioAssets(): StudioAssets {
  const file = join(packageRoot(), 'dist', 'studio-assets', 'app.js');
  return { script: existsSync(file) ? readFileSync(file, 'utf8') : undefined };
}
