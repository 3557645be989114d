import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const ROOT = join(import.meta.dirname, '..', '..');
/** The conformance suite's own node version: the suite needs Node >= 22 (`fs.globSync`), the project stays on 20. */
const NODE_VERSION = '22.23.5';
const CACHE = join(ROOT, 'node_modules', '.cache', `thinkflow-node${NODE_VERSION}`);
const SUITE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
export const EXPECTED_FAILURES = join(ROOT, 'examples', 'mcp-conformance', 'expected-failures.yaml');

/**
 * A Node 22 binary from the npm registry, for the conformance suite alone. It is installed into a
 * cache directory (never into `node_modules/.bin`, where it would shadow Node 20 in npm scripts and
 * break native addons) and reused across runs.
 */
export async function node22(): Promise<string> {
  const pkg = `node-${process.platform}-${process.arch}`;
  const binary = join(CACHE, 'node_modules', pkg, 'bin', 'node');
  if (existsSync(binary)) return binary;
  // Install beside the cache and rename, so two test files racing never see half a binary.
  const staging = `${CACHE}.${process.pid}`;
  mkdirSync(staging, { recursive: true });
  try {
    await run(
      'npm',
      [
        'install',
        '--prefix',
        staging,
        '--no-save',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        `${pkg}@${NODE_VERSION}`,
      ],
      {
        timeout: 180_000,
      },
    );
    if (!existsSync(binary)) renameSync(staging, CACHE);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return binary;
}

/** One scenario's outcome, read from the suite's `checks.json`. */
export interface ScenarioOutcome {
  scenario: string;
  passed: number;
  failed: number;
  failures: string[];
}

/** What one run of the suite said: its exit code, its output and each scenario's checks. */
export interface SuiteRun {
  code: number;
  output: string;
  scenarios: ScenarioOutcome[];
}

/**
 * Runs the pinned conformance suite (`server` or `client` mode) with Node 22, in one process, from
 * the repository root (the client command runs `node --import tsx` from there). With
 * `baseline`, the suite itself checks the expected-failures file (its exit code says so).
 */
export async function runConformance(args: string[], outputDir: string, baseline = true): Promise<SuiteRun> {
  const node = await node22();
  let code = 0;
  let output = '';
  const extra = baseline ? ['--expected-failures', EXPECTED_FAILURES] : [];
  try {
    const done = await run(node, [SUITE, ...args, ...extra, '-o', outputDir], {
      cwd: ROOT,
      timeout: 280_000,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    output = done.stdout + done.stderr;
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    code = typeof failed.code === 'number' ? failed.code : 1;
    output = `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
  }
  return { code, output, scenarios: readOutcomes(outputDir) };
}

function readOutcomes(outputDir: string, group = ''): ScenarioOutcome[] {
  if (!existsSync(outputDir)) return [];
  const outcomes: ScenarioOutcome[] = [];
  for (const entry of readdirSync(outputDir)) {
    const file = join(outputDir, entry, 'checks.json');
    if (!existsSync(file)) {
      // Client scenarios named `auth/x` are saved under `auth/`.
      if (!group && !/\d{4}-\d\d-\d\dT/.test(entry))
        outcomes.push(...readOutcomes(join(outputDir, entry), `${entry}/`));
      continue;
    }
    const checks = JSON.parse(readFileSync(file, 'utf8')) as Array<{
      id: string;
      status: string;
      errorMessage?: string;
    }>;
    const scenario = group + entry.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
    const failed = checks.filter((c) => c.status === 'FAILURE');
    outcomes.push({
      scenario,
      passed: checks.filter((c) => c.status === 'SUCCESS').length,
      failed: failed.length,
      failures: failed.map((c) => `${c.id}: ${c.errorMessage ?? ''}`),
    });
  }
  return outcomes.sort((a, b) => a.scenario.localeCompare(b.scenario));
}

/** The scenarios the expected-failures file lists for one mode. */
export function expectedFailures(mode: 'server' | 'client'): string[] {
  const text = readFileSync(EXPECTED_FAILURES, 'utf8');
  const section = text.split(/^(?=\w+:)/m).find((part) => part.startsWith(`${mode}:`)) ?? '';
  return [...section.matchAll(/^\s+-\s+([\w/.-]+)/gm)].map((m) => m[1]);
}
