import type { Command } from 'commander';
import { Agent } from '../agent/index.js';
import { demoModel } from '../llm/index.js';
import { loadConfig, serve, type ThinkflowConfig } from '../server/index.js';
import { dataDir } from './data-dir.js';
import { DEMO_TOOLS } from './select-tools.js';
import { onShutdownSignal } from './serve-command.js';

interface StudioFlags {
  port: string;
  host: string;
  config?: string;
  dataDir?: string;
}

/** The config without a file: the rule-based demo agent with its calculator, search and weather tools. */
export function demoConfig(): ThinkflowConfig {
  return { agents: { demo: () => new Agent({ model: demoModel(), tools: DEMO_TOOLS }) } };
}

/** Registers `thinkflow studio`: a server with the studio page on, and its URL printed. */
export function registerStudioCommand(program: Command): void {
  program
    .command('studio')
    .description('Serve the studio web page: chat with agents and watch each step (the demo agent without --config).')
    .option('--port <n>', 'port to listen on (0 = any free port)', '4317')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--config <file>', 'config file (default: the demo agent)')
    .option('--data-dir <dir>', 'where the SQLite run store lives (default ~/.thinkflow)')
    .action(async (flags: StudioFlags) => {
      const config = flags.config ? await loadConfig(flags.config) : demoConfig();
      const server = await serve({
        config: { ...config, studio: true },
        port: Number.parseInt(flags.port, 10),
        hostname: flags.host,
        dataDir: dataDir(flags.dataDir),
      });
      process.stderr.write(`thinkflow: serving ${Object.keys(config.agents).join(', ')} on ${server.url}\n`);
      process.stdout.write(`thinkflow studio: ${server.url}/studio\n`);
      onShutdownSignal(server.close);
    });
}
