import { Command } from 'commander';
import { registerChatCommand } from './chat-command.js';
import { registerEvalCommand } from './eval-command.js';
import { registerMcpServeCommand } from './mcp-serve-command.js';
import { registerMemoryCommand } from './memory-command.js';
import { registerModelsCommand } from './models-command.js';
import { registerReplayCommand } from './replay-command.js';
import { registerRunCommand } from './run-command.js';
import { registerRunsCommand } from './runs-command.js';
import { registerServeCommand } from './serve-command.js';
import { registerStudioCommand } from './studio-command.js';
import { registerTraceCommand } from './trace-command.js';
import { registerWorkerCommand } from './worker-command.js';

/**
 * The `thinkflow` command line. Each command lives in its own file and registers itself here.
 */
export function buildProgram(): Command {
  const program = new Command('thinkflow')
    .description('Build and run LLM agents you can see into.')
    .version('0.1.0')
    .showHelpAfterError();
  // Commands register below, one line each.
  registerRunCommand(program);
  registerTraceCommand(program);
  registerReplayCommand(program);
  registerEvalCommand(program);
  registerMcpServeCommand(program);
  registerModelsCommand(program);
  registerServeCommand(program);
  registerWorkerCommand(program);
  registerMemoryCommand(program);
  registerChatCommand(program);
  registerRunsCommand(program);
  registerStudioCommand(program);
  return program;
}
