import type { Command } from 'commander';
import { ConfigError, redactText } from '../core/index.js';
import { createLogThrottle, createRunWorker, createWorkflowWorker, loadConfig, openStore } from '../server/index.js';
import { postgresWorkflowStore } from '../workflow/index.js';
import { configPath } from './config-path.js';
import { addExamples } from './global-options.js';
import { onShutdownSignal, servedNames } from './serve-command.js';

interface WorkerFlags {
  queue: string;
  queueName?: string;
  pg: string;
  pgSchema?: string;
  config?: string;
  concurrency: string;
  lockDuration: string;
  stalledInterval?: string;
  leaseDuration?: string;
}

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new ConfigError({ message: `${flag} must be a positive whole number, got "${value}".` });
  return n;
}

/** Registers `thinkflow worker`. */
export function registerWorkerCommand(program: Command): void {
  const command = program
    .command('worker')
    .description(
      'Execute runs and workflow steps queued by `thinkflow serve --queue` (BullMQ on Redis, state in PostgreSQL).',
    )
    .requiredOption('--queue <redis-url>', 'the Redis the API servers queue runs on')
    .option('--queue-name <name>', 'the BullMQ queue (as given to serve)', 'thinkflow-runs')
    .requiredOption('--pg <postgres-url>', 'the PostgreSQL holding run state')
    .option('--pg-schema <name>', 'the PostgreSQL schema (as given to serve)', 'thinkflow')
    .option('--config <file>', 'config file, as given to serve (default: thinkflow.config.* here)')
    .option('--concurrency <n>', 'runs executed at once (and, apart, workflow steps)', '16')
    .option('--lock-duration <ms>', "how long a dead worker's runs wait before another worker resumes them", '30000')
    .option('--stalled-interval <ms>', 'how often to look for runs of dead workers (default: half the lock duration)')
    .option(
      '--lease-duration <ms>',
      "how long this worker's PostgreSQL lease on a run lasts unrenewed before the run counts as abandoned (default: the lock duration)",
    )
    .action(async (flags: WorkerFlags) => {
      const concurrency = positiveInt(flags.concurrency, '--concurrency');
      const lockDurationMs = positiveInt(flags.lockDuration, '--lock-duration');
      const stalledIntervalMs = positiveInt(flags.stalledInterval, '--stalled-interval');
      const leaseMs = positiveInt(flags.leaseDuration, '--lease-duration');
      const config = await loadConfig(configPath(flags.config, 'worker'));
      const log = createLogThrottle((line) => process.stderr.write(`${line}\n`));
      const store = await openStore({ pg: flags.pg, pgSchema: flags.pgSchema }, undefined);
      const workflows = config.workflows ?? {};
      // The config's workflows: their steps, sent by `serve --queue`, run here too (checkpoints in PostgreSQL).
      const workflowStore =
        Object.keys(workflows).length > 0
          ? postgresWorkflowStore({ connectionString: flags.pg, schema: flags.pgSchema ?? 'thinkflow' })
          : undefined;
      const steps =
        workflowStore &&
        createWorkflowWorker({
          workflows,
          store: workflowStore,
          redisUrl: flags.queue,
          queueName: flags.queueName,
          concurrency,
          lockDurationMs,
          stalledIntervalMs,
          onError: (error) => log(`thinkflow worker: ${redactText(String(error))}`),
        });
      const worker = createRunWorker({
        agents: config.agents,
        store,
        redisUrl: flags.queue,
        queueName: flags.queueName,
        concurrency,
        lockDurationMs,
        stalledIntervalMs,
        leaseMs,
        // An outage repeats the same error on every reconnect and retry: one line per interval, with a count.
        onError: (error) => log(`thinkflow worker: ${redactText(String(error))}`),
      });
      process.stderr.write(`thinkflow: worker serving ${servedNames(config)}\n`);
      onShutdownSignal(async () => {
        await Promise.all([worker.close(), steps?.close()]);
        await store.close();
        await workflowStore?.close?.();
      });
    });
  addExamples(command, [
    [
      'one worker beside `thinkflow serve --queue`',
      'thinkflow worker --queue redis://127.0.0.1:6379 --pg postgres://127.0.0.1/thinkflow',
    ],
    [
      'more runs at once, its own config',
      'thinkflow worker --queue redis://q:6379 --pg postgres://db/tf --concurrency 32 --config agents.config.ts',
    ],
  ]);
}
