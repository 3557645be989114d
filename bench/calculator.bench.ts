/**
 * The calculator's first call against importing thinkflow, in one fresh process each time: import thinkflow
 * (timed), then time the first `sqrt(16)` (the common functions are answered without mathjs), the first plain
 * `(15 + 7) * 3`, and the first expression only mathjs reads (`5 cm to inch`, which loads it). Each process
 * prints its ratio of first `sqrt(16)` to the import; the goal is a ratio at or under 1. Repeated in seven
 * processes: the ranges and medians are printed (the machine is shared, so quote ranges).
 *
 * Uses the built package, as a user imports it (`npm run build` first).
 *
 * Run: npm run build && node --import tsx bench/calculator.bench.ts
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const PROCESSES = 7;

interface Sample {
  importMs: number;
  sqrtMs: number;
  plainMs: number;
  mathjsMs: number;
}

function sample(): Sample {
  const script = `
    const t0 = performance.now();
    const { calculatorTool } = await import('thinkflow');
    const importMs = performance.now() - t0;
    const time = async (expression, expected) => {
      const started = performance.now();
      const out = await calculatorTool.run({ expression }, {});
      if (out !== expected) throw new Error(expression + ' gave ' + out);
      return performance.now() - started;
    };
    const sqrtMs = await time('sqrt(16)', '4');
    const plainMs = await time('(15 + 7) * 3', '66');
    const mathjsMs = await time('5 cm to inch', '1.9685039370079 inch');
    process.stdout.write(JSON.stringify({ importMs, sqrtMs, plainMs, mathjsMs }));
  `;
  const text = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(text) as Sample;
}

const samples = Array.from({ length: PROCESSES }, sample);
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const range = (xs: number[], digits = 1) => {
  const s = sorted(xs);
  return `${s[0].toFixed(digits)}–${s.at(-1)?.toFixed(digits)} (median ${s[Math.floor(s.length / 2)].toFixed(digits)})`;
};
const of = (key: keyof Sample) => samples.map((s) => s[key]);
console.log(`calculator first calls, ${PROCESSES} fresh processes, each after importing thinkflow:`);
console.log(`  import thinkflow          ${range(of('importMs'))} ms`);
console.log(`  first sqrt(16)            ${range(of('sqrtMs'), 2)} ms`);
console.log(`  then (15 + 7) * 3         ${range(of('plainMs'), 2)} ms`);
console.log(`  then 5 cm to inch (mathjs) ${range(of('mathjsMs'))} ms`);
console.log(
  `ratio first sqrt(16) / import thinkflow, per process: ${range(
    samples.map((s) => s.sqrtMs / s.importMs),
    4,
  )}`,
);
console.log(
  `ratio first mathjs call / import thinkflow, per process: ${range(
    samples.map((s) => s.mathjsMs / s.importMs),
    2,
  )}`,
);
