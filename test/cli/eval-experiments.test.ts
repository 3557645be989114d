import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { evalRun, evalSuite } from '../../src/cli/eval-command.js';
import { evalCompare } from '../../src/cli/eval-compare-command.js';
import { evalList } from '../../src/cli/eval-list-command.js';
import { evalRescore } from '../../src/cli/eval-rescore-command.js';
import { columnsOf } from '../../src/eval/index.js';
import { Agent, calculatorTool, scriptedModel } from '../../src/index.js';

const ROOT = join(import.meta.dirname, '..', '..');
const EVAL = join(ROOT, 'src', 'eval', 'index.ts');
const dir = mkdtempSync(join(tmpdir(), 'eval-exp-'));
const quiet = () => {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: {
      stdout: (t: string) => {
        out.stdout += t;
      },
      stderr: (t: string) => {
        out.stderr += t;
      },
      color: false,
    },
  };
};

/** A suite.ts whose task answers wrong for the cases in `broken`. */
function tsSuite(name: string, broken: number[]): string {
  const path = join(dir, `${name}.eval.ts`);
  writeFileSync(
    path,
    `import { exact, noError } from ${JSON.stringify(EVAL)};
const broken = new Set(${JSON.stringify(broken)});
export default {
  name: ${JSON.stringify(name)},
  data: Array.from({ length: 30 }, (_, i) => ({ id: 'c' + i, input: i, expected: 'ok' })),
  task: (input: number) => (broken.has(input) ? 'no' : 'ok'),
  scorers: [exact(), noError()],
};
`,
  );
  return path;
}

const cli = (args: string[]) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', THINKFLOW_HOME: join(dir, 'home') },
  }).then(
    (ok) => ({ code: 0, ...ok }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

describe('thinkflow eval run / compare / rescore', () => {
  it('runs a suite.ts, keeps it in the store, and writes JSON, HTML with SVG charts and JUnit XML', async () => {
    const { out, io } = quiet();
    const code = await evalRun(
      tsSuite('base', []),
      {
        save: true,
        dataDir: join(dir, 'data'),
        output: join(dir, 'base.json'),
        html: join(dir, 'base.html'),
        junit: join(dir, 'base.xml'),
      },
      io,
    );
    expect(code).toBe(0);
    expect(out.stdout).toMatch(/exact +1\.000/);
    expect(JSON.parse(readFileSync(join(dir, 'base.json'), 'utf8')).trials).toHaveLength(30);
    expect(readFileSync(join(dir, 'base.html'), 'utf8')).toMatch(/<svg[^>]+aria-label="exact score distribution"/);
    const junit = readFileSync(join(dir, 'base.xml'), 'utf8');
    expect(junit).toMatch(/<testsuite name="base" [^>]*tests="30" failures="0"/);
  });

  it('lists the experiments kept in the data dir, newest first, Chinese names aligned; compare takes their ids', async () => {
    const data = join(dir, 'listed');
    const { io } = quiet();
    const empty = quiet();
    expect(await evalList({ dataDir: data }, empty.io)).toBe(0);
    expect(empty.out.stdout).toMatch(
      /^No experiments in .*listed: `thinkflow eval run SUITE` keeps each one there\.\n$/,
    );
    await evalRun(tsSuite('首都测验', [3]), { save: true, dataDir: data }, io);
    await evalRun(tsSuite('capitals', []), { save: true, dataDir: data }, io);
    const listed = quiet();
    expect(await evalList({ dataDir: data }, listed.io)).toBe(0);
    const lines = listed.out.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id +status +cases×trials +pass +started$/);
    expect(lines[2]).toMatch(/^capitals-\S+ +done +30×1 +100\.0% +\d{4}-/);
    expect(lines[3]).toMatch(/^首都测验-\S+ +done +30×1 +96\.7% +\d{4}-/);
    // Chinese takes two columns a character: the columns line up on screen.
    expect(columnsOf(lines[2].slice(0, lines[2].indexOf('done')))).toBe(
      columnsOf(lines[3].slice(0, lines[3].indexOf('done'))),
    );
    const json = quiet();
    await evalList({ dataDir: data, json: true, limit: '1' }, json.io);
    const [newest] = JSON.parse(json.out.stdout) as { id: string; passRate: number }[];
    expect(newest).toMatchObject({ name: 'capitals', passRate: 1 });
    const compared = await evalCompare(newest.id, lines[3].split(' ')[0], { dataDir: data }, io);
    expect(compared.comparison.broken).toEqual(['c3']);
    await expect(evalList({ dataDir: data, limit: '0' }, io)).rejects.toThrow(/--limit must be a whole number/);
  });

  it('gates on a planted regression: compare exits 1 with --fail-on-regression, names the broken cases', async () => {
    const { io } = quiet();
    expect(await evalRun(tsSuite('main', [0]), { output: join(dir, 'main.json') }, io)).toBe(1);
    expect(
      await evalRun(
        tsSuite('pr', [0, 5, 6, 7, 8, 9, 10, 11, 12]),
        { output: join(dir, 'pr.json'), junit: join(dir, 'pr.xml') },
        io,
      ),
    ).toBe(1);
    expect(readFileSync(join(dir, 'pr.xml'), 'utf8')).toMatch(
      /failures="9"[\s\S]*<testcase classname="pr" name="c5" [^>]*><failure message="exact: expected &quot;ok&quot;/,
    );
    const gate = await cli([
      'eval',
      'compare',
      join(dir, 'main.json'),
      join(dir, 'pr.json'),
      '--fail-on-regression',
      '--html',
      join(dir, 'cmp.html'),
    ]);
    expect(gate.code).toBe(1);
    expect(gate.stdout).toMatch(/broken 8: c5, c6/);
    expect(gate.stdout).toMatch(/verdict REGRESSION/);
    expect(readFileSync(join(dir, 'cmp.html'), 'utf8')).toContain('Per-case diff');
    const same = await cli(['eval', 'compare', join(dir, 'main.json'), join(dir, 'main.json'), '--fail-on-regression']);
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/verdict unchanged/);
  }, 120_000);

  it('rescores trace files without calling a model', async () => {
    const traces = join(dir, 'traces');
    const model = scriptedModel([
      { text: '', toolCalls: [{ id: 'c', name: 'calculator', arguments: '{"expression":"2+2"}' }] },
      'It is 4.',
    ]);
    await new Agent({ model, tools: [calculatorTool], streaming: false, traceFile: join(traces, 'a.jsonl') }).run(
      '2+2?',
    );
    const { out, io } = quiet();
    const code = await evalRescore(
      [join(traces, 'a.jsonl')],
      { scorer: ['noError', 'contains:4', 'budget:steps=1', 'trajectory:calculator'] },
      io,
    );
    expect(code).toBe(1);
    expect(out.stdout).toMatch(
      /✓ noError 1\.00 {2}✓ contains 1\.00 {2}✗ budget 0\.00 \(steps 2 > 1\) {2}✓ trajectory:exact 1\.00/,
    );
    await expect(evalRescore(['x.jsonl'], { scorer: ['nope'] }, io)).rejects.toThrow(/Unknown scorer "nope"/);
  });

  it('says so when the traces hold no run, and names a --scorer toolCalls file it cannot read (a usage error)', async () => {
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const { out, io } = quiet();
    expect(await evalRescore([empty], { scorer: ['noError'] }, io)).toBe(1);
    expect(out.stderr).toBe(`No run to score: ${empty} holds no events.\n`);
    const bad = join(dir, 'expected-bad.json');
    writeFileSync(bad, '{"calls": []}\n');
    const noFile = evalRescore([empty], { scorer: [`toolCalls:${join(dir, 'none.json')}`] }, io);
    await expect(noFile).rejects.toMatchObject({
      name: 'ConfigError',
      message: expect.stringMatching(/none\.json: ENOENT/),
    });
    await expect(evalRescore([empty], { scorer: [`toolCalls:${bad}`] }, io)).rejects.toThrow(
      /--scorer toolCalls:.*expected-bad\.json: toolCalls: the expected calls are a list of calls, .* \(got \{"calls": \[\]\}\)$/,
    );
  });

  it('answers an unchanged re-run from the reply cache: zero model calls; --no-cache calls again', async () => {
    let requests = 0;
    const server = createServer((req, res) => {
      requests++;
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'x',
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: 'The answer is 4.' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const suite = join(dir, 'cached.yaml');
      writeFileSync(
        suite,
        'name: cached\ncases:\n  - id: a\n    input: 2+2?\n    checks: [{ contains: "4" }]\n  - id: b\n    input: 3+1?\n    checks: [{ contains: "4" }]\n',
      );
      const model = `compat:http://127.0.0.1:${(server.address() as AddressInfo).port}/v1#m`;
      const flags = { model, cache: true, dataDir: join(dir, 'cache') };
      expect((await evalSuite(suite, flags, quiet().io)).report.passRate).toBe(1);
      expect(requests).toBe(2);
      const again = await evalSuite(suite, flags, quiet().io);
      expect(again.report.passRate).toBe(1);
      expect(requests).toBe(2);
      await evalSuite(suite, { ...flags, cache: false }, quiet().io);
      expect(requests).toBe(4);
    } finally {
      server.close();
    }
  });
});
