import { createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { ConfigError, errorMessage } from '../core/index.js';
import { findLocalModel, modelsDir } from '../llm/index.js';
import { addExamples } from './global-options.js';
import { createProgressBar } from './progress-bar.js';

/** Small instruct models `thinkflow models pull NAME` knows, with the GGUF file to fetch. */
export const KNOWN_MODELS: Record<string, { file: string; url: string }> = {
  'qwen2.5-0.5b-instruct': {
    file: 'qwen2.5-0.5b-instruct-q4_k_m.gguf',
    url: 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf',
  },
  'qwen2.5-1.5b-instruct': {
    file: 'qwen2.5-1.5b-instruct-q4_k_m.gguf',
    url: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf',
  },
};
export const DEFAULT_MODEL = 'qwen2.5-0.5b-instruct';

/** Where `pullModel` writes progress and results. */
export interface PullIo {
  stderr: (text: string) => void;
  /** Stderr is a terminal: draw a progress bar (elsewhere none is drawn). */
  tty?: boolean;
}

export interface PullOptions {
  /** Download from this URL instead of the hub (also `$THINKFLOW_MODEL_URL`). */
  url?: string;
  /** Folder to write to (default `~/.thinkflow/models`). */
  dir?: string;
  signal?: AbortSignal;
}

/**
 * Downloads a GGUF model into the models folder with a progress bar and returns its path. When the
 * hub cannot be reached (these machines often have no internet access) it throws a `ConfigError`
 * that says so plainly and explains how to place a GGUF file by hand.
 */
export async function pullModel(name: string = DEFAULT_MODEL, options: PullOptions = {}, io: PullIo): Promise<string> {
  const known = KNOWN_MODELS[name];
  const url = options.url ?? process.env.THINKFLOW_MODEL_URL ?? known?.url;
  if (!url) {
    throw new ConfigError({
      message: `Unknown model "${name}". Known: ${Object.keys(KNOWN_MODELS).join(', ')} (or pass --url).`,
    });
  }
  const dir = options.dir ?? modelsDir();
  const file = known?.file ?? (new URL(url).pathname.split('/').pop() || `${name}.gguf`);
  const target = join(dir, file.endsWith('.gguf') ? file : `${file}.gguf`);
  const partial = `${target}.part`;
  mkdirSync(dir, { recursive: true });
  let response: Response;
  try {
    response = await fetch(url, { signal: options.signal, redirect: 'follow' });
  } catch (error) {
    throw unreachable(url, errorMessage(causeOf(error)), target, dir);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw unreachable(url, `it answered HTTP ${response.status}`, target, dir);
  }
  const total = Number(response.headers.get('content-length')) || undefined;
  const bar = createProgressBar({
    sink: { write: io.stderr, tty: io.tty === true },
    label: `downloading ${file}`,
    total,
    unit: mb,
  });
  let received = 0;
  try {
    const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
    body.on('data', (chunk: Buffer) => {
      received += chunk.length;
      bar.update(received, total ? `${Math.floor((received / total) * 100)}%` : undefined);
    });
    await pipeline(body, createWriteStream(partial));
  } catch (error) {
    bar.finish();
    rmSync(partial, { force: true });
    throw unreachable(url, `the download broke off: ${errorMessage(causeOf(error))}`, target, dir);
  }
  bar.finish();
  renameSync(partial, target);
  io.stderr(`saved ${target} (${mb(received)})\nrun it with: thinkflow run --model llamacpp:${target} "your task"\n`);
  return target;
}

function unreachable(url: string, why: string, target: string, dir: string): ConfigError {
  const host = new URL(url).origin;
  return new ConfigError({
    message:
      `Could not download the model: the model hub ${host} is unreachable (${why}). This machine may have no internet access.\n` +
      `To use a local model anyway, copy a GGUF file into ${dir}/ yourself (for example as ${target}), ` +
      'then run with --model llamacpp:PATH.gguf, or with no --model to use the first GGUF file found there.',
  });
}

function causeOf(error: unknown): unknown {
  return error instanceof Error && error.cause ? error.cause : error;
}

function mb(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

/** Registers `thinkflow models pull [NAME]` and `thinkflow models list`. */
export function registerModelsCommand(
  program: Command,
  io: { stdout: (t: string) => void } & PullIo = defaultIo(),
): void {
  const models = program.command('models').description('Local GGUF models for --model llamacpp:PATH.gguf.');
  addExamples(models, [
    ['download the default small model', 'thinkflow models pull'],
    ['see what a run without --model would use', 'thinkflow models list'],
  ]);
  const pull = models
    .command('pull [name]')
    .description(`Download a small instruct model (default ${DEFAULT_MODEL}) into ~/.thinkflow/models.`)
    .option('--url <url>', 'download this GGUF URL instead (also $THINKFLOW_MODEL_URL)')
    .option('--dir <dir>', 'folder to save into (default ~/.thinkflow/models)')
    .action(async (name: string | undefined, options: { url?: string; dir?: string }) => {
      await pullModel(name ?? DEFAULT_MODEL, options, io);
    });
  addExamples(pull, [
    ['the default, into ~/.thinkflow/models', 'thinkflow models pull'],
    ['a bigger known model', 'thinkflow models pull qwen2.5-1.5b-instruct'],
    [
      'any GGUF URL, into a folder of your choice',
      'thinkflow models pull mine --url https://example.com/m.gguf --dir ./models',
    ],
  ]);
  const list = models
    .command('list')
    .description('Show the known models and the GGUF file a run without --model would use.')
    .option('--dir <dir>', 'models folder (default ~/.thinkflow/models)')
    .action((options: { dir?: string }) => {
      const local = findLocalModel(options.dir ?? modelsDir());
      io.stdout(`known: ${Object.keys(KNOWN_MODELS).join(', ')}\nlocal: ${local ?? '(none)'}\n`);
    });
  addExamples(list, [
    ['the default folder', 'thinkflow models list'],
    ['another folder', 'thinkflow models list --dir ./models'],
  ]);
}

function defaultIo() {
  return {
    stdout: (t: string) => void process.stdout.write(t),
    stderr: (t: string) => void process.stderr.write(t),
    tty: process.stderr.isTTY === true,
  };
}
