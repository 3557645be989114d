import type { Command } from 'commander';
import { EXIT_CODES_HELP } from './exit-codes.js';

interface GlobalFlags {
  envFile?: string | boolean;
  color?: boolean;
}

/**
 * The options every command shares, and how errors leave the program. Call before commands are added:
 * commander copies `exitOverride` and the output settings into each subcommand as it is created.
 * - `--env-file FILE` / `--no-env-file`: `.env` in the working directory is loaded when present.
 * - `--no-color` / `--color`: set NO_COLOR / FORCE_COLOR for everything that prints (see `useColor`).
 * - Usage errors throw (exit 2, see `exitCodeForError`) instead of exiting 1, and under `--json`
 *   commander's text message is left out so stderr holds only the JSON error.
 */
export function addGlobalOptions(program: Command): Command {
  program.addHelpText('after', `\n${EXIT_CODES_HELP}`);
  addProgramExamples(program);
  return (
    program
      .option('--env-file <file>', 'load environment variables from FILE (default: ./.env when present)')
      .option('--no-env-file', 'do not load ./.env')
      .option('--color', 'colour even when not writing to a terminal (also FORCE_COLOR=1)')
      .option('--no-color', 'no colour (also NO_COLOR=1)')
      .exitOverride()
      // The whole help after every typo hides the one line that matters.
      .showHelpAfterError('(add --help for the options and examples)')
      .configureOutput({
        writeErr: (text) => {
          if (!wantsJson()) process.stderr.write(text);
        },
      })
      // env-file loads here, not at import: `thinkflow --help` loads nothing but commander.
      .hook('preAction', async () => {
        const flags = program.opts<GlobalFlags>();
        if (flags.color === false) process.env.NO_COLOR = '1';
        else if (flags.color === true) {
          delete process.env.NO_COLOR;
          process.env.FORCE_COLOR = '1';
        }
        const { loadEnvFile } = await import('./env-file.js');
        loadEnvFile(flags.envFile);
      })
  );
}

/** The examples at the end of `thinkflow --help`. */
export function addProgramExamples(program: Command): Command {
  return addExamples(program, [
    ['start here: the whole loop with no API key', 'thinkflow run --model demo "What is (15 + 7) * 3?"'],
    [
      'save a default model, then pipe a question in',
      'thinkflow config set model ollama:qwen2.5:7b && echo "Hi" | thinkflow run',
    ],
    ['every command has its own examples', 'thinkflow run --help'],
  ]);
}

/** Ends a command's `--help` with real examples, each a comment line and the command. */
export function addExamples(command: Command, examples: [what: string, line: string][]): Command {
  const text = examples.map(([what, line]) => `  # ${what}\n  $ ${line}`).join('\n');
  return command.addHelpText('after', `\nExamples:\n${text}`);
}

/** True when the command line asks for JSON, for errors raised before a command's own flags are read. */
export function wantsJson(argv: readonly string[] = process.argv.slice(2)): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}
