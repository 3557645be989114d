import type { Command } from 'commander';
import { ConfigError } from '../core/index.js';
import { loadConfig, serve, type ThinkflowConfig } from '../server/index.js';
import { keepServingOnBrokenPipe } from './broken-pipe.js';
import { configPath } from './config-path.js';
import { dataDir } from './data-dir.js';
import { addExamples } from './global-options.js';
import { addSecurityFlags, type SecurityFlags } from './security-flags.js';

interface ServeFlags extends SecurityFlags {
  port: string;
  host: string;
  config?: string;
  queue?: string;
  queueName?: string;
  pg?: string;
  pgSchema?: string;
  dataDir?: string;
  retentionDays?: string;
  recoveryInterval?: string;
}

/** What a config serves, as the "serving …" line names it: its agents, then `workflow <name>` for each workflow. */
export function servedNames(config: Pick<ThinkflowConfig, 'agents' | 'workflows'>): string {
  const workflows = Object.keys(config.workflows ?? {}).map((name) => `workflow ${name}`);
  return [...Object.keys(config.agents ?? {}), ...workflows].join(', ');
}

/**
 * Stops on SIGTERM/SIGINT: stop accepting, let runs finish or checkpoint them, then exit. Until then
 * the process is a service: a reader of its logs that leaves does not end it.
 */
export function onShutdownSignal(close: () => Promise<void>): void {
  keepServingOnBrokenPipe();
  const stop = (signal: string) => {
    process.stderr.write(`thinkflow: ${signal}, shutting down (running runs finish or are checkpointed)\n`);
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

/** Reads `--retention-days`: a number of days, 0 or more (fractions allowed). */
function retentionDays(text: string): number {
  const days = Number(text);
  if (text.trim() === '' || !Number.isFinite(days) || days < 0)
    throw new Error(`--retention-days must be a number of days, 0 or more (0 keeps runs forever); got "${text}".`);
  return days;
}

/** Reads `--recovery-interval`: milliseconds, more than 0. */
function recoveryInterval(text: string): number {
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms <= 0)
    throw new ConfigError({ message: `--recovery-interval must be a positive number of milliseconds; got "${text}".` });
  return ms;
}

/** Registers `thinkflow serve`. */
export function registerServeCommand(program: Command): void {
  const command = program
    .command('serve')
    .description('Serve the agents of thinkflow.config.ts over HTTP (runs, SSE events, OpenAI-compatible chat).')
    .option('--port <n>', 'port to listen on (0 = any free port)', '8787')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--config <file>', 'config file (default: thinkflow.config.ts, .mts, .js, .mjs, .yaml, .yml or .json here)')
    .option('--queue <redis-url>', 'hand runs to `thinkflow worker` processes through BullMQ on this Redis')
    .option('--queue-name <name>', 'the BullMQ queue (default thinkflow-runs)')
    .option('--pg <postgres-url>', 'keep runs in PostgreSQL (required with --queue)')
    .option('--pg-schema <name>', 'the PostgreSQL schema (default thinkflow)')
    .option('--data-dir <dir>', 'where the SQLite run store lives (default ~/.thinkflow)')
    .option(
      '--recovery-interval <ms>',
      'with --queue: how often runs PostgreSQL holds but Redis lost are re-enqueued (default 10000)',
    )
    .option('--retention-days <n>', 'days finished runs are kept (default 30, or the config; 0 = forever)')
    .action(async (flags: ServeFlags) => {
      if (flags.queue && !flags.pg)
        throw new ConfigError({
          message: '--queue needs --pg postgres://…: API servers and workers share run state there.',
        });
      const config = await loadConfig(configPath(flags.config, 'serve'));
      const server = await serve({
        config,
        port: Number.parseInt(flags.port, 10),
        hostname: flags.host,
        tokens: flags.token,
        allowedHosts: flags.allowedHost,
        queue: flags.queue,
        queueName: flags.queueName,
        pg: flags.pg,
        pgSchema: flags.pgSchema,
        dataDir: dataDir(flags.dataDir),
        retentionDays: flags.retentionDays === undefined ? undefined : retentionDays(flags.retentionDays),
        recoveryIntervalMs: flags.recoveryInterval === undefined ? undefined : recoveryInterval(flags.recoveryInterval),
      });
      process.stderr.write(`thinkflow: serving ${servedNames(config)} on ${server.url}\n`);
      onShutdownSignal(server.close);
    });
  addSecurityFlags(command);
  addExamples(command, [
    ['the agents of ./thinkflow.config.ts (or .yaml, .json) on port 8787', 'thinkflow serve'],
    [
      'the demo agent from a YAML config',
      'echo "agents: { demo: { model: demo } }" > thinkflow.config.yaml && thinkflow serve',
    ],
    [
      'scale out: queue runs for `thinkflow worker`',
      'thinkflow serve --queue redis://127.0.0.1:6379 --pg postgres://127.0.0.1/thinkflow',
    ],
  ]);
}
