/**
 * What `npm install thinkflow` costs a new user: packs this repository's tarball (`npm pack`, which
 * builds first), installs it into an empty temporary project with default npm settings, and reports the
 * tarball (size, files, any source map), the installed size and the number of packages, and the
 * largest packages. Needs the npm registry.
 *
 * Run: node --import tsx bench/install-size.bench.ts
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'thinkflow-install-'));
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Bytes of every file below `path` (apparent size, symlinks not followed). */
function sizeOf(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((total, name) => total + sizeOf(join(path, name)), 0);
}

/** Every installed package (a folder with a package.json under some node_modules), with its own size. */
function packages(modules: string, found: Map<string, number> = new Map()): Map<string, number> {
  if (!existsSync(modules)) return found;
  for (const name of readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    const dirs = name.startsWith('@') ? readdirSync(join(modules, name)).map((n) => join(name, n)) : [name];
    for (const dir of dirs) {
      const path = join(modules, dir);
      if (!existsSync(join(path, 'package.json'))) continue;
      found.set(path, sizeOf(path));
      packages(join(path, 'node_modules'), found);
    }
  }
  return found;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

try {
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work], ROOT))[0] as {
    filename: string;
    size: number;
    unpackedSize: number;
    files: { path: string }[];
  };
  const maps = packed.files.filter((f) => f.path.endsWith('.map')).length;
  console.log(
    `tarball ${packed.filename}: ${mb(packed.size)} packed, ${mb(packed.unpackedSize)} unpacked, ${packed.files.length} files, ${maps} source maps`,
  );

  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  const started = performance.now();
  npm(['install', '--no-audit', '--no-fund', join(work, packed.filename)], app);
  const seconds = (performance.now() - started) / 1000;
  const installed = packages(join(app, 'node_modules'));
  const total = sizeOf(join(app, 'node_modules'));
  console.log(
    `npm install into an empty project: ${mb(total)} in ${installed.size} packages (${seconds.toFixed(0)} s); target ≤ 60 MB and ≤ 80 packages`,
  );
  const largest = [...installed].sort((a, b) => b[1] - a[1]).slice(0, 8);
  console.log(
    `largest: ${largest.map(([path, bytes]) => `${path.slice(path.lastIndexOf('node_modules/') + 13)} ${mb(bytes)}`).join(', ')}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
