import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { readTrace, renderHtml, renderTimeline } from '../trace/index.js';
import { addExamples } from './global-options.js';

/** Where a command writes; the CLI passes process streams, tests pass collectors. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Colours on stdout (a TTY without NO_COLOR). */
  color: boolean;
}

/** The process's own streams, colour only on a TTY and without NO_COLOR (FORCE_COLOR forces it). */
export function processIo(): CommandIo {
  const env = process.env;
  const color = !env.NO_COLOR && (Boolean(env.FORCE_COLOR) || process.stdout.isTTY === true);
  return { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t), color };
}

/** `thinkflow trace show FILE`: prints the run as a timeline. */
export function traceShow(file: string, options: { maxText?: number }, io: CommandIo): void {
  io.stdout(renderTimeline(readTrace(file), { color: io.color, maxText: options.maxText }));
}

/** `thinkflow trace html FILE -o OUT`: writes the self-contained HTML report. */
export function traceHtml(file: string, options: { output: string; title?: string }, io: CommandIo): void {
  writeFileSync(options.output, renderHtml(readTrace(file), { title: options.title }));
  io.stderr(`wrote ${options.output}\n`);
}

/** Registers `thinkflow trace show|html`. */
export function registerTraceCommand(program: Command, io: CommandIo = processIo()): void {
  const trace = program.command('trace').description('Look at a JSONL trace written with --trace.');
  addExamples(trace, [
    ['record a run', 'thinkflow run -m demo --trace run.jsonl "What is 2+2?"'],
    ['read it as a timeline', 'thinkflow trace show run.jsonl'],
  ]);
  const show = trace
    .command('show <file>')
    .description('Print the run as a timeline: steps, thoughts, tool calls, tokens, errors, status.')
    .option('--max-text <n>', 'characters of text per line before cutting', (v) => Number.parseInt(v, 10))
    .action((file: string, options: { maxText?: number }) => traceShow(file, options, io));
  addExamples(show, [
    ['the whole run', 'thinkflow trace show run.jsonl'],
    ['shorter lines', 'thinkflow trace show run.jsonl --max-text 80'],
  ]);
  const html = trace
    .command('html <file>')
    .description('Write one self-contained HTML report (works offline).')
    .requiredOption('-o, --output <file>', 'the HTML file to write')
    .option('--title <title>', 'page title')
    .action((file: string, options: { output: string; title?: string }) => traceHtml(file, options, io));
  addExamples(html, [
    ['one page that works offline', 'thinkflow trace html run.jsonl -o run.html'],
    ['with a title', 'thinkflow trace html run.jsonl -o run.html --title "Bug 42"'],
  ]);
}
