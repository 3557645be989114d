/**
 * Does reading a big run hold the server's event loop? A real `thinkflow serve` child process (SQLite
 * store, `bench/fixtures/many-events.config.ts`) gets a question of just under 1 MiB twice: once for
 * the demo agent (how many events it makes), once for `echo`, which streams it back in 8-character
 * deltas (130,000 events, as the demo model made before). Then five concurrent SSE readers of the
 * echo run (in another child process) read it while this process asks `/health` every 25 ms. Prints
 * each run's event count and trace size, the readers' wall time, and /health latency (p50/p99/max)
 * with no readers and with them. On a shared machine the latency includes waiting for a CPU.
 *
 *   node --import tsx bench/sse-readers.bench.ts [--readers 5] [--bytes 1040000]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const READERS = arg('readers', 5);
const BYTES = arg('bytes', 1_040_000);

function startServer(dir: string): Promise<{ url: string; stop: () => void }> {
  const config = join(ROOT, 'bench/fixtures/many-events.config.ts');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'serve', '--port', '0', '--config', config, '--data-dir', dir],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk;
      const match = /serving .* on (http:\/\/\S+)/.exec(err);
      if (match) resolve({ url: match[1], stop: () => child.kill('SIGKILL') });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${err}`)));
  });
}

/** Readers in their own process, so this one only measures /health. Resolves with their wall time. */
function readInChild(url: string, readers: number): Promise<{ ms: number; bytes: number[] }> {
  const script = `
    const started = performance.now();
    const read = async () => {
      const response = await fetch(${JSON.stringify(url)});
      let bytes = 0;
      for await (const chunk of response.body) bytes += chunk.length;
      return bytes;
    };
    Promise.all(Array.from({ length: ${readers} }, read)).then((bytes) =>
      process.stdout.write(JSON.stringify({ ms: performance.now() - started, bytes })));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`readers exited ${code}`))));
  });
}

/** Asks /health every `everyMs` until `until` settles; each latency in ms (a failure counts as the time it took). */
async function probeHealth(url: string, until: Promise<unknown>, everyMs = 25): Promise<number[]> {
  let done = false;
  until.finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    try {
      await fetch(`${url}/health`, { signal: AbortSignal.timeout(30_000) }).then((r) => r.text());
      latencies.push(performance.now() - started);
    } catch (error) {
      // Counted at the time it took to fail (a blocked server drops the idle keep-alive socket).
      console.log(`  /health failed after ${(performance.now() - started).toFixed(0)} ms: ${String(error)}`);
      latencies.push(performance.now() - started);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return latencies;
}

function summary(latencies: number[]): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return `n=${sorted.length} p50=${at(0.5).toFixed(1)} ms p99=${at(0.99).toFixed(1)} ms max=${(sorted.at(-1) ?? 0).toFixed(1)} ms`;
}

const dir = mkdtempSync(join(tmpdir(), 'tf-sse-bench-'));
const server = await startServer(dir);
try {
  const words = 'please look up the history of the word lorem ipsum and tell me ';
  const input = words.repeat(Math.ceil(BYTES / words.length)).slice(0, BYTES);
  const runOf = async (agent: string) => {
    const started = performance.now();
    const response = await fetch(`${server.url}/v1/agents/${agent}/runs?wait=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input }),
    });
    const run = (await response.json()) as { id: string; status: string };
    const runMs = performance.now() - started;
    const trace = await (await fetch(`${server.url}/v1/runs/${run.id}/trace`)).text();
    const events = trace.split('\n').filter(Boolean).length;
    const mb = (trace.length / 1e6).toFixed(1);
    console.log(`${agent}: run ${run.status} in ${runMs.toFixed(0)} ms, ${events} events, trace ${mb} MB`);
    return run;
  };
  await runOf('demo');
  const run = await runOf('echo');
  const idle = await probeHealth(server.url, new Promise((resolve) => setTimeout(resolve, 1000)));
  console.log(`/health, no readers:    ${summary(idle)}`);
  const reading = readInChild(`${server.url}/v1/runs/${run.id}/events`, READERS);
  const busy = await probeHealth(server.url, reading);
  const { ms, bytes } = await reading;
  console.log(`/health, ${READERS} SSE readers: ${summary(busy)}`);
  console.log(`readers done in ${ms.toFixed(0)} ms, ${(bytes[0] / 1e6).toFixed(1)} MB each`);
} finally {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}
