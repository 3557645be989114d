/**
 * Start-up costs, as ratios measured in one run (runs interleaved, medians of ROUNDS, so load from
 * other processes skews every row alike). Uses the built package (`npm run build` first):
 * - `import { Agent, defineTool, openaiCompatible } from 'thinkflow'` vs `import 'zod'` alone, timed in
 *   a fresh process around the import (target ≤ 3×);
 * - `thinkflow --help` vs a bare commander program with the same commands, whole process (target ≤ 2×);
 * - `thinkflow run --model demo "…"` vs `node -e 0` plus the calculator's first load (target ≤ 3×).
 *
 * Run: npm run build && node --import tsx bench/startup.bench.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMANDS } from '../src/cli/program.js';

const ROOT = join(import.meta.dirname, '..');
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const work = mkdtempSync(join(tmpdir(), 'thinkflow-startup-'));

/** Wall-clock and CPU milliseconds a script reports for itself (it prints `[wall, cpu]`). */
function reported(code: string): [number, number] {
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' }),
  );
}

/** Wall-clock milliseconds of a whole process. */
function wall(args: string[]): number {
  const started = performance.now();
  execFileSync(process.execPath, args, { cwd: ROOT, stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
  return performance.now() - started;
}

// CPU time as well as wall time: on a shared machine, CPU time is what load from other processes skews least.
const timedImport = (what: string) =>
  `const c = process.cpuUsage(); const t = performance.now(); ${what}; const d = process.cpuUsage(c);
  process.stdout.write(JSON.stringify([performance.now() - t, (d.user + d.system) / 1000]));`;

// The bare commander program: the same command names and descriptions, nothing behind them.
const bare = join(work, 'bare.mjs');
writeFileSync(
  bare,
  `import { Command } from ${JSON.stringify(join(ROOT, 'node_modules', 'commander', 'index.js'))};
const program = new Command('thinkflow').description('Build and run LLM agents you can see into.').version('0.1.0');
for (const [name, description] of ${JSON.stringify(Object.entries(COMMANDS).map(([n, c]) => [n, c.description]))}) program.command(name).description(description);
program.parse();`,
);

const rows: Record<string, number[]> = {};
const add = (name: string, ms: number) => {
  rows[name] ??= [];
  rows[name].push(ms);
};
const cli = join(ROOT, 'dist', 'cli', 'main.js');
for (let round = 0; round < ROUNDS; round++) {
  const [thinkflowWall, thinkflowCpu] = reported(timedImport(`await import('thinkflow')`));
  const [zodWall, zodCpu] = reported(timedImport(`await import('zod')`));
  add('import thinkflow', thinkflowWall);
  add('import zod', zodWall);
  add('import thinkflow (CPU)', thinkflowCpu);
  add('import zod (CPU)', zodCpu);
  add('thinkflow --help', wall([cli, '--help']));
  add('bare commander --help', wall([bare, '--help']));
  add('thinkflow run --model demo', wall([cli, 'run', '--model', 'demo', 'What is 17 * 23?']));
  add('node -e 0', wall(['-e', '0']));
  add(
    'calculator first load',
    reported(
      timedImport(`const { calculate } = await import('./dist/tools/builtins/calculator.js'); calculate('17 * 23')`),
    )[0],
  );
}
rmSync(work, { recursive: true, force: true });

const median = (name: string) => {
  const sorted = [...rows[name]].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const range = (name: string) => `${Math.min(...rows[name]).toFixed(0)}–${Math.max(...rows[name]).toFixed(0)} ms`;
for (const name of Object.keys(rows))
  console.log(`${name.padEnd(28)} median ${median(name).toFixed(0)} ms (${range(name)})`);
console.log(
  `\nimport thinkflow / import zod: ${(median('import thinkflow') / median('import zod')).toFixed(2)}× wall, ${(median('import thinkflow (CPU)') / median('import zod (CPU)')).toFixed(2)}× CPU (target ≤ 3×)`,
);
console.log(
  `thinkflow --help / bare commander: ${(median('thinkflow --help') / median('bare commander --help')).toFixed(2)}× (target ≤ 2×)`,
);
const floor = median('node -e 0') + median('calculator first load');
console.log(
  `demo run / (node -e 0 + calculator first load): ${(median('thinkflow run --model demo') / floor).toFixed(2)}× (target ≤ 3×)`,
);
