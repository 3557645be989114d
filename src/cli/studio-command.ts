import { randomBytes } from 'node:crypto';
import { type Command, Option } from 'commander';
import { Agent } from '../agent/index.js';
import { demoModel } from '../llm/index.js';
import { apiTokens, loadConfig, serve, type ThinkflowConfig } from '../server/index.js';
import { dataDir } from './data-dir.js';
import { addExamples } from './global-options.js';
import { numberIn } from './model-options.js';
import { addSecurityFlags, type SecurityFlags } from './security-flags.js';
import { DEMO_TOOLS } from './select-tools.js';
import { onShutdownSignal, servedNames } from './serve-command.js';

interface StudioFlags extends SecurityFlags {
  port: number;
  host: string;
  config?: string;
  dataDir?: string;
  /** False with `--no-auth`. */
  auth: boolean;
}

/**
 * The token of this start of the studio, when no token is configured: a page that cannot read the
 * printed URL (another site, another local server) cannot drive the agents, as with Jupyter.
 */
function sessionToken(config: ThinkflowConfig, flags: StudioFlags): string | undefined {
  if (!flags.auth || apiTokens(config).length > 0 || (flags.token?.length ?? 0) > 0) return undefined;
  return randomBytes(24).toString('base64url');
}

/** The config without a file: the rule-based demo agent with its calculator, search and weather tools. */
export function demoConfig(): ThinkflowConfig {
  return { agents: { demo: () => new Agent({ model: demoModel(), tools: DEMO_TOOLS }) } };
}

/** Registers `thinkflow studio`: a server with the studio page on, and its URL printed. */
export function registerStudioCommand(program: Command): void {
  const studio = program
    .command('studio')
    .description('Serve the studio web page: chat with agents and watch each step (the demo agent without --config).')
    .addOption(
      new Option('--port <n>', 'port to listen on (0 = any free port)')
        .argParser(numberIn('--port', 0, 65_535, true))
        .default(4317),
    )
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--config <file>', 'config file (default: the demo agent)')
    .option('--data-dir <dir>', 'where the SQLite run store lives (default ~/.thinkflow)')
    .option(
      '--no-auth',
      'no fresh token in the printed URL: any local process or page on localhost can drive the agents',
    )
    .action(async (flags: StudioFlags) => {
      const config = flags.config ? await loadConfig(flags.config) : demoConfig();
      const token = sessionToken(config, flags);
      const server = await serve({
        config: { ...config, studio: true },
        port: flags.port,
        hostname: flags.host,
        dataDir: dataDir(flags.dataDir),
        tokens: [...(flags.token ?? []), ...(token ? [token] : [])],
        allowedHosts: flags.allowedHost,
      });
      process.stderr.write(`thinkflow: serving ${servedNames(config)} on ${server.url}\n`);
      // The token rides in the URL once; the page keeps it and drops it from the address bar.
      const query = token ? `?token=${token}` : '';
      process.stdout.write(`thinkflow studio: ${server.url}/studio${query}\n`);
      onShutdownSignal(server.close);
    });
  addSecurityFlags(studio);
  addExamples(studio, [
    ['the demo agent, no API key needed', 'thinkflow studio'],
    ['your own agents on another port', 'thinkflow studio --config thinkflow.config.ts --port 8080'],
  ]);
}
