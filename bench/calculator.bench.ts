/**
 * The calculator's first call, in a fresh process each time: plain arithmetic (`(15 + 7) * 3`), which the
 * small arithmetic evaluator answers without loading mathjs, against an expression only mathjs reads
 * (`sqrt(16) + sin(30 deg)`), which loads it. Prints the median of five processes each, and the ratio.
 *
 * Run: node --import tsx bench/calculator.bench.ts
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const calculator = join(import.meta.dirname, '..', 'src', 'tools', 'builtins', 'calculator.ts');

function firstCallMs(expression: string): number {
  const script = `
    const { calculatorTool } = await import(${JSON.stringify(calculator)});
    const started = performance.now();
    const out = await calculatorTool.run({ expression: ${JSON.stringify(expression)} }, {});
    process.stdout.write(JSON.stringify({ ms: performance.now() - started, out }));
  `;
  const text = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  return (JSON.parse(text) as { ms: number }).ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runs = (expression: string) => median(Array.from({ length: 5 }, () => firstCallMs(expression)));

const plain = runs('(15 + 7) * 3');
const full = runs('sqrt(16) + sin(30 deg)');
console.log(`calculator first call: plain arithmetic ${plain.toFixed(1)} ms, with mathjs ${full.toFixed(1)} ms`);
console.log(`ratio: a first call that loads mathjs takes ${Math.round(full / plain)}× as long as plain arithmetic`);
