import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const fixture = fileURLToPath(new URL('../fixtures/workflows/type-errors.ts', import.meta.url));
const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

describe('workflow types', () => {
  it('make a step that cannot take the previous output a compile error, at each marked line and nowhere else', async () => {
    // Without its @ts-expect-error directives, the fixture must fail exactly on the lines they marked.
    const lines = readFileSync(fixture, 'utf8').split('\n');
    const expected: number[] = [];
    const stripped = lines.map((line, i) => {
      if (!line.trim().startsWith('// @ts-expect-error')) return line;
      expected.push(i + 2);
      return '';
    });
    const copy = fixture.replace(/\.ts$/, '.stripped.ts');
    writeFileSync(copy, stripped.join('\n'));
    const args = [
      '--noEmit',
      '--strict',
      '--target',
      'ES2022',
      '--module',
      'NodeNext',
      '--moduleResolution',
      'NodeNext',
    ];
    try {
      const output = await promisify(execFile)(process.execPath, [
        tsc,
        ...args,
        '--skipLibCheck',
        '--types',
        'node',
        copy,
      ]).then(
        () => '',
        (error: { stdout: string }) => error.stdout,
      );
      const errorLines = [
        ...new Set([...output.matchAll(/stripped\.ts\((\d+),\d+\): error/g)].map((m) => Number(m[1]))),
      ];
      expect(errorLines.sort((a, b) => a - b)).toEqual(expected);
      expect(expected.length).toBeGreaterThanOrEqual(6);
    } finally {
      rmSync(copy, { force: true });
    }
  }, 120_000);
});
