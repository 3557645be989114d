import type { Command } from 'commander';
import { createRunWorker, loadConfig, PostgresRunStore } from '../server/index.js';
import { onShutdownSignal } from './serve-command.js';

interface WorkerFlags {
  queue: string;
  pg: string;
  config: string;
  concurrency: string;
}

/** Registers `thinkflow worker`. */
export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('Execute runs queued by `thinkflow serve --queue` (BullMQ on Redis, run state in PostgreSQL).')
    .requiredOption('--queue <redis-url>', 'the Redis the API servers queue runs on')
    .requiredOption('--pg <postgres-url>', 'the PostgreSQL holding run state')
    .option('--config <file>', 'config file', 'thinkflow.config.ts')
    .option('--concurrency <n>', 'runs executed at once', '16')
    .action(async (flags: WorkerFlags) => {
      const config = await loadConfig(flags.config);
      const store = new PostgresRunStore({ connectionString: flags.pg });
      await store.init();
      const worker = createRunWorker({
        agents: config.agents,
        store,
        redisUrl: flags.queue,
        concurrency: Number.parseInt(flags.concurrency, 10),
        onError: (error) => process.stderr.write(`thinkflow worker: ${String(error)}\n`),
      });
      process.stderr.write(`thinkflow: worker serving ${Object.keys(config.agents).join(', ')}\n`);
      onShutdownSignal(async () => {
        await worker.close();
        await store.close();
      });
    });
}
