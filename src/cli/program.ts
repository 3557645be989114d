import { Command } from 'commander';
import { addGlobalOptions } from './global-options.js';

type Register = (program: Command) => void;

/**
 * Every command: its one-line description (for `thinkflow --help`) and how to load it. A command's
 * module, and everything it imports (the server, stores, providers...), loads only when that command
 * runs or shows its own help, so `thinkflow --help` and each command start fast.
 * A test checks these descriptions against the ones the command modules register.
 */
export const COMMANDS: Record<string, { description: string; load: () => Promise<Register> }> = {
  run: {
    description: 'Run an agent on one question; the answer goes to stdout, the steps to stderr.',
    load: async () => (await import('./run-command.js')).registerRunCommand,
  },
  trace: {
    description: 'Look at a JSONL trace written with --trace.',
    load: async () => (await import('./trace-command.js')).registerTraceCommand,
  },
  replay: {
    description: 'Re-run a trace (recorded model replies, or --model) and report the first step where it diverges.',
    load: async () => (await import('./replay-command.js')).registerReplayCommand,
  },
  eval: {
    description:
      'Evaluate agents: run suites (YAML or suite.ts) as experiments, compare two, rescore stored runs and traces.',
    load: async () => (await import('./eval-command.js')).registerEvalCommand,
  },
  'mcp-serve': {
    description: 'Serve thinkflow tools to any MCP client, over stdio (default) or streamable HTTP.',
    load: async () => (await import('./mcp-serve-command.js')).registerMcpServeCommand,
  },
  models: {
    description: 'Local GGUF models for --model llamacpp:PATH.gguf.',
    load: async () => (await import('./models-command.js')).registerModelsCommand,
  },
  serve: {
    description: 'Serve the agents of thinkflow.config.ts over HTTP (runs, SSE events, OpenAI-compatible chat).',
    load: async () => (await import('./serve-command.js')).registerServeCommand,
  },
  worker: {
    description:
      'Execute runs and workflow steps queued by `thinkflow serve --queue` (BullMQ on Redis, state in PostgreSQL).',
    load: async () => (await import('./worker-command.js')).registerWorkerCommand,
  },
  memory: {
    description: 'Add, search, list and remove long-term memories.',
    load: async () => (await import('./memory-command.js')).registerMemoryCommand,
  },
  chat: {
    description: 'Chat with an agent; the conversation is kept as a session in the data dir.',
    load: async () => (await import('./chat-command.js')).registerChatCommand,
  },
  runs: {
    description: 'Look at, export and prune the runs a server stored.',
    load: async () => (await import('./runs-command.js')).registerRunsCommand,
  },
  studio: {
    description: 'Serve the studio web page: chat with agents and watch each step (the demo agent without --config).',
    load: async () => (await import('./studio-command.js')).registerStudioCommand,
  },
  workflow: {
    description: 'Run, resume or fork a workflow of the config file (checkpoints in the data dir).',
    load: async () => (await import('./workflow-command.js')).registerWorkflowCommand,
  },
  config: {
    description: 'Saved defaults (model), kept in config.json under THINKFLOW_HOME.',
    load: async () => (await import('./config-command.js')).registerConfigCommand,
  },
};

/** The command `argv` asks for (`thinkflow run …`, `thinkflow help run`), if any. */
function requested(argv: readonly string[]): string | undefined {
  const words = argv.slice(2).filter((arg) => !arg.startsWith('-'));
  return words[0] === 'help' ? words[1] : words[0];
}

/**
 * The `thinkflow` command line. The command `argv` names is loaded and registered in full; the others
 * are listed by name and description only. Pass `'all'` to load every command (for tests).
 */
export async function buildProgram(argv: readonly string[] | 'all' = process.argv): Promise<Command> {
  const program = new Command('thinkflow')
    .description('Build and run LLM agents you can see into.')
    .version('0.1.0')
    .showHelpAfterError();
  // Before the commands: commander copies the exit override and output settings into each as it is made.
  addGlobalOptions(program);
  const wanted = argv === 'all' ? undefined : requested(argv);
  for (const [name, command] of Object.entries(COMMANDS)) {
    if (argv === 'all' || name === wanted) (await command.load())(program);
    else program.command(name).description(command.description);
  }
  return program;
}
