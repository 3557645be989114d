import { createInterface, type Interface } from 'node:readline';
import type { Command } from 'commander';
import pc from 'picocolors';
import { Agent, createToolRouter } from '../agent/index.js';
import { contentText, isThinkflowError, type Message, redactText } from '../core/index.js';
import { SqliteMemoryStore, SqliteSessionStore } from '../memory/node.js';
import { useColor } from './colors.js';
import { dataDir } from './data-dir.js';
import { addExamples } from './global-options.js';
import { addModelOptions, type ModelFlags, withRequestDefaults } from './model-options.js';
import { createPrettyPrinter } from './pretty-printer.js';
import { collectFlag, readAttachments } from './read-attachments.js';
import { reportError } from './report-error.js';
import { chosenModelSpec, selectModel } from './select-model.js';
import { selectTools } from './select-tools.js';

interface ChatFlags extends ModelFlags {
  session: string;
  model?: string;
  tools?: string;
  dataDir?: string;
  memory?: boolean;
  quiet?: boolean;
  maxSteps: string;
  attach?: string[];
}

const HELP = `Commands: /history shows this session, /reset forgets it, /exit quits (also Ctrl-D).
Ctrl-C stops the current answer; at the prompt, press it twice to quit.`;

const errorText = (error: unknown) =>
  redactText(isThinkflowError(error) || error instanceof Error ? error.message : String(error));

function printHistory(messages: Message[]): void {
  if (messages.length === 0) {
    process.stdout.write(pc.dim('(this session is empty)\n'));
    return;
  }
  for (const m of messages) {
    const who = m.role === 'user' ? pc.cyan('you') : m.role === 'assistant' ? pc.green('agent') : pc.dim(m.role);
    process.stdout.write(`${who}: ${contentText(m.content)}\n`);
  }
}

/** `thinkflow chat`: a REPL over one session; each line is a run whose turn is stored in SQLite. */
export function registerChatCommand(program: Command): void {
  const command = program
    .command('chat')
    .description('Chat with an agent; the conversation is kept as a session in the data dir.')
    .option('-s, --session <name>', 'session to load and append to', 'default')
    .option('-m, --model <spec>', 'model spec (see `thinkflow run --help`); default THINKFLOW_MODEL')
    .option('-t, --tools <names>', 'comma-separated tool kits, e.g. calculator,files')
    .option('--memory', 'recall long-term memories before each answer and store episodes after')
    .option('-q, --quiet', 'hide the steps, show only answers')
    .option('--max-steps <n>', 'most loop steps per answer', '10')
    .option('--data-dir <dir>', 'where thinkflow keeps its data (default ~/.thinkflow)')
    .option('--attach <file>', 'send an image or file with your first message (repeatable)', collectFlag)
    .action(async (flags: ChatFlags) => {
      process.exitCode = await chat(flags);
    });
  addModelOptions(command);
  addExamples(command, [
    ['chat with the demo model', 'thinkflow chat --model demo'],
    ['a named session with long-term memory', 'thinkflow chat --session trip --memory'],
    ['answers only, no steps', 'thinkflow chat -q'],
  ]);
}

async function chat(flags: ChatFlags): Promise<number> {
  const dir = dataDir(flags.dataDir);
  const sessions = new SqliteSessionStore({ dataDir: dir });
  const memory = flags.memory ? new SqliteMemoryStore({ dataDir: dir }) : undefined;
  let agent: Agent;
  let attachments: ReturnType<typeof readAttachments> | undefined;
  try {
    attachments = readAttachments(flags.attach);
    const { tools, protocol } = selectTools(chosenModelSpec(flags.model), { tools: flags.tools }, {});
    agent = new Agent({
      model: withRequestDefaults(await selectModel(flags.model, process.env, { providerOptions: flags.option }), flags),
      tools,
      protocol,
      toolRouting: createToolRouter(),
      maxSteps: Number(flags.maxSteps) || 10,
      sessions,
      memory: memory ? { store: memory } : undefined,
    });
    const earlier = await sessions.load(flags.session);
    process.stderr.write(
      pc.dim(`Session "${flags.session}" (${earlier.length} earlier messages) in ${dir}. ${HELP}\n`),
    );
  } catch (error) {
    await sessions.close();
    await memory?.close();
    return reportError(error, { command: 'thinkflow chat', color: useColor(process.stderr) });
  }

  const rl: Interface = createInterface({ input: process.stdin, output: process.stdout, prompt: pc.cyan('you> ') });
  let running: AbortController | undefined;
  let pendingExit = false;
  const onInterrupt = () => {
    if (running) {
      running.abort();
      return;
    }
    if (pendingExit) rl.close();
    else {
      pendingExit = true;
      process.stdout.write(pc.dim('\n(press Ctrl-C again or type /exit to quit)\n'));
      rl.prompt();
    }
  };
  // A terminal delivers Ctrl-C to readline; a pipe or `kill -INT` delivers it to the process.
  rl.on('SIGINT', onInterrupt);
  process.on('SIGINT', onInterrupt);
  const printer = flags.quiet ? undefined : createPrettyPrinter();

  rl.prompt();
  try {
    for await (const raw of rl) {
      const line = raw.trim();
      pendingExit = false;
      if (line === '/exit' || line === '/quit') break;
      if (line === '/help') process.stdout.write(`${HELP}\n`);
      else if (line === '/history') printHistory(await sessions.load(flags.session));
      else if (line === '/reset') {
        await sessions.reset(flags.session);
        process.stdout.write(pc.dim(`(session "${flags.session}" reset)\n`));
      } else if (line.startsWith('/')) process.stdout.write(`Unknown command ${line}. ${HELP}\n`);
      else if (line) {
        running = new AbortController();
        try {
          const result = await agent.run(line, {
            sessionId: flags.session,
            signal: running.signal,
            onEvent: printer,
            attachments,
          });
          attachments = undefined; // the files go with the first message only
          if (result.status === 'aborted') process.stdout.write(pc.yellow('(stopped)\n'));
          else process.stdout.write(`${pc.green('agent>')} ${result.output}\n`);
          if (result.status !== 'done' && result.status !== 'aborted' && result.error) {
            process.stderr.write(pc.yellow(`(${result.status}: ${result.error.message})\n`));
          }
        } catch (error) {
          process.stderr.write(`${pc.red('error:')} ${errorText(error)}\n`);
        } finally {
          running = undefined;
        }
      }
      rl.prompt();
    }
  } finally {
    process.off('SIGINT', onInterrupt);
    rl.close();
    await sessions.close();
    await memory?.close();
  }
  return 0;
}
