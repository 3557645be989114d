/**
 * Every TypeScript snippet in README.md and docs/*.md compiles against the package, and runs.
 *
 * How: each ```ts block becomes a module in `.docs-snippets/` at the repository root (so `import 'thinkflow'`
 * resolves to this package by self-reference: its `exports`, the built `dist/` with its .d.ts, as a user's
 * project gets it). One TypeScript program type-checks them all with the repository's compiler options,
 * then emits them. One Node process (no API key set, `THINKFLOW_HOME` in a temporary folder) imports the
 * runnable ones in turn, each in an empty working directory of its own, and records what each printed
 * and whether it finished. A snippet passes when it finished without throwing within its time limit and
 * printed what its `console.log(x); // text` lines claim. So `npm run build` first, as CI does (`npm ci` builds).
 *
 * Markers, HTML comments right above a block (see test/helpers/doc-snippets.ts):
 * - `<!-- snippet: typecheck-only -->` for a snippet that needs a real API key or an outside service;
 * - `<!-- snippet-prelude` … `-->` for hidden setup a fragment needs (`const agent = …`).
 * Write snippets that run with `scriptedModel`/`demoModel` or a server on 127.0.0.1 where you can.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DocSnippet, docFiles, extractSnippets, printsClaim } from './helpers/doc-snippets.js';

const ROOT = join(import.meta.dirname, '..');
const run = promisify(execFile);

const snippets = docFiles(ROOT).flatMap((file) => extractSnippets(file, ROOT));

interface Compiled {
  snippet: DocSnippet;
  file: string;
  preludeLines: number;
}

/** Writes the snippets as modules, type-checks them in one program and emits the JavaScript. */
function compile(dir: string): { compiled: Compiled[]; errors: string[] } {
  const compiled = snippets.map((snippet, i) => {
    const file = join(dir, `snippet-${String(i).padStart(2, '0')}.ts`);
    const prelude = snippet.prelude === '' ? '' : `${snippet.prelude}\n`;
    // `export {}` keeps a snippet without imports a module, so snippets never share globals.
    writeFileSync(file, `${prelude}${snippet.code}\nexport {};\n`);
    return { snippet, file, preludeLines: prelude.split('\n').length - 1 };
  });
  const program = ts.createProgram(
    compiled.map((c) => c.file),
    {
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      esModuleInterop: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules/@types')],
      outDir: dir,
      rootDir: dir,
    },
  );
  const errors: string[] = [];
  for (const c of compiled) {
    const source = program.getSourceFile(c.file);
    if (!source) throw new Error(`${c.snippet.where}: not in the program`);
    for (const d of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const line = source.getLineAndCharacterOfPosition(d.start ?? 0).line - c.preludeLines;
      const place = line < 0 ? 'prelude' : `snippet line ${line + 1}`;
      errors.push(`${c.snippet.where} (${place}): ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    }
    program.emit(source);
  }
  return { compiled, errors };
}

/**
 * Imports each snippet module in turn, in a fresh working directory, and writes `{ [file]: { error, output } }`
 * as JSON: one process loads the package once for all snippets (a process per snippet took over a minute).
 */
const RUNNER = `
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';

const [out, limitMs, ...files] = process.argv.slice(2);
const results = {};
// A stray rejection must fail the snippet running, not end the process with every result unwritten.
let current;
const stray = (error) => {
  if (current) results[current] = { error: 'an unhandled error (this snippet, or one before it left work running): ' + ((error && error.stack) || String(error)), output: '' };
};
process.on('unhandledRejection', stray);
process.on('uncaughtException', stray);
for (const file of files) {
  current = file;
  const cwd = mkdtempSync(join(tmpdir(), 'thinkflow-snippet-'));
  process.chdir(cwd);
  let timer;
  const output = [];
  console.log = (...args) => output.push(format(...args));
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('did not finish within ' + limitMs + ' ms')), Number(limitMs));
  });
  try {
    await Promise.race([import(pathToFileURL(file).href), timeout]);
    await new Promise((resolve) => setTimeout(resolve, 10)); // lets a rejection nobody awaited surface here
    results[file] ??= { error: null, output: output.join('\\n') };
  } catch (error) {
    results[file] = { error: (error && error.stack) || String(error), output: output.join('\\n') };
  } finally {
    clearTimeout(timer);
    process.chdir(tmpdir());
    rmSync(cwd, { recursive: true, force: true });
  }
}
writeFileSync(out, JSON.stringify(results));
process.exit(0);
`;

interface SnippetRun {
  error: string | null;
  output: string;
}

/** Runs the runnable snippets' JavaScript in one Node process; returns what each printed and its error, if any. */
async function runAll(dir: string, files: string[]): Promise<Record<string, SnippetRun>> {
  const runner = join(dir, 'runner.mjs');
  const out = join(dir, 'results.json');
  writeFileSync(runner, RUNNER);
  const home = mkdtempSync(join(tmpdir(), 'thinkflow-snippets-home-'));
  const env: NodeJS.ProcessEnv = { ...process.env, THINKFLOW_HOME: home, NO_COLOR: '1' };
  for (const key of Object.keys(env)) if (/_API_KEY$|^THINKFLOW_MODEL$/.test(key)) delete env[key];
  try {
    await run(process.execPath, [runner, out, String(SNIPPET_LIMIT_MS), ...files], {
      cwd: dir,
      env,
      timeout: 170_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return JSON.parse(readFileSync(out, 'utf8'));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const SNIPPET_LIMIT_MS = 20_000;

describe('documentation snippets', { timeout: 60_000 }, () => {
  let dir: string;
  let compiled: ReturnType<typeof compile>;
  let results: Record<string, SnippetRun>;

  beforeAll(async () => {
    mkdirSync(join(ROOT, '.docs-snippets'), { recursive: true });
    dir = mkdtempSync(join(ROOT, '.docs-snippets', 'run-'));
    compiled = compile(dir);
    const runnable = compiled.compiled.filter((c) => c.snippet.run).map((c) => c.file.replace(/\.ts$/, '.js'));
    results = await runAll(dir, runnable);
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the snippets of README.md and docs/', () => {
    expect(snippets.length).toBeGreaterThan(20);
    expect(snippets.some((s) => s.where.startsWith('docs/'))).toBe(true);
  });

  it('every snippet type-checks against the package', () => {
    expect(compiled.errors).toEqual([]);
  });

  for (const [i, snippet] of snippets.entries()) {
    if (!snippet.run) continue;
    it(`${snippet.where} runs and prints what it claims`, () => {
      const result = results[compiled.compiled[i].file.replace(/\.ts$/, '.js')];
      expect(result, `${snippet.where} was not run`).toBeDefined();
      expect(result.error, `${snippet.where} failed`).toBeNull();
      for (const claim of snippet.claims) {
        expect(printsClaim(result.output, claim), `${snippet.where} should print "${claim}":\n${result.output}`).toBe(
          true,
        );
      }
    });
  }
});
