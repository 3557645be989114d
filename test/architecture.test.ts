import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function imports(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

function moduleOf(file: string): string {
  return relative(SRC, file).split(sep)[0];
}

function target(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  return moduleOf(join(file, '..', spec));
}

// cache/ wraps models (llm/) and keeps replies in SQLite through memory/'s opener, so it sits above both;
// eval/ checks finished runs and formats reports, so it sits above trace/ and below cli/.
const LAYERS = ['core', 'llm', 'tools', 'protocols', 'memory', 'cache', 'trace', 'eval', 'agent', 'server', 'cli'];

describe('architecture', () => {
  const all = files(SRC);

  it('core/ and protocols/ import nothing but zod, jsonrepair and each other', () => {
    // The one exception: the optional-peer loader needs node:module's createRequire.
    const seam = join('core', 'load-optional.ts');
    const bad: string[] = [];
    for (const file of all) {
      const mod = moduleOf(file);
      if (mod !== 'core' && mod !== 'protocols') continue;
      for (const spec of imports(file)) {
        const to = target(file, spec);
        const allowed =
          spec === 'zod' || spec === 'jsonrepair' || (spec === 'node:module' && relative(SRC, file) === seam);
        const ok = to ? to === 'core' || to === 'protocols' : allowed;
        if (!ok) bad.push(`${relative(SRC, file)} -> ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('nothing below agent/ imports agent/, server/ or cli/', () => {
    // eval/ runs cases through a function the caller passes (the CLI builds the Agent), so it stays below agent/.
    const below = new Set(['core', 'llm', 'tools', 'protocols', 'memory', 'cache', 'trace', 'eval']);
    const bad: string[] = [];
    for (const file of all) {
      if (!below.has(moduleOf(file))) continue;
      for (const spec of imports(file)) {
        const to = target(file, spec);
        if (to === 'agent' || to === 'server' || to === 'cli') bad.push(`${relative(SRC, file)} -> ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('modules import each other only through their index', () => {
    const bad: string[] = [];
    for (const file of all) {
      const from = moduleOf(file);
      for (const spec of imports(file)) {
        const to = target(file, spec);
        if (!to || to === from || !LAYERS.includes(to)) continue;
        const resolved = relative(SRC, join(file, '..', spec)).split(sep);
        const isIndex = resolved.length === 2 && resolved[1] === 'index.js';
        if (!isIndex) bad.push(`${relative(SRC, file)} -> ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('no source file passes the 500-line hard cap', () => {
    const big = all.filter((f) => readFileSync(f, 'utf8').split('\n').length > 500).map((f) => relative(SRC, f));
    expect(big).toEqual([]);
  });

  it('no eval or Function constructor anywhere in src', () => {
    const bad = all.filter((f) => /\beval\(|new Function\(/.test(readFileSync(f, 'utf8')));
    expect(bad).toEqual([]);
  });
});
