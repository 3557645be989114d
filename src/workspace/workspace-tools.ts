import { z } from 'zod';
import { type AnyTool, defineTool, type ToolContext } from '../tools/index.js';
import { type CommandPolicy, decideCommand } from './command-policy.js';
import { TOOL_TEXTS, type ToolLanguage, type ToolTexts } from './tool-texts.js';
import type { ExecResult, Workspace } from './workspace.js';
import { type ChangeContext, ensureBase, recordChange } from './workspace-journal.js';
import { relativePath } from './workspace-path.js';

/** Options of `workspaceTools`. */
export interface WorkspaceToolsOptions {
  /** Which commands `bash` runs, asks about or refuses (matched on the parsed script). Default: all run. */
  policy?: { commands?: CommandPolicy };
  /** The language of the tools' descriptions and messages. Default `en`. */
  language?: ToolLanguage;
  /**
   * Snapshot the files after each `bash`, `write_file` and `edit_file` call that changed them, and emit a
   * `workspace_change` event (the run's log keeps it, so resume, fork and rewind find the files). Default true.
   */
  snapshots?: boolean;
}

const PAGE_LINES = 400;

/**
 * The model's tools over a workspace: `bash`, `read_file`, `write_file`, `edit_file`, `glob`, `grep` and
 * `ls`. A command the policy asks about needs approval (the run pauses, durably); one it denies is an
 * observation saying why. Paths are relative to the workspace root; one that leaves it is refused.
 *
 * @example
 * const ws = await virtualWorkspace({ files: { 'sales.csv': csv } });
 * const agent = new Agent({ model, tools: workspaceTools(ws, { policy: { commands: { deny: ['rm -rf'] } } }) });
 */
export function workspaceTools(ws: Workspace, options: WorkspaceToolsOptions = {}): AnyTool[] {
  const t = TOOL_TEXTS[options.language ?? 'en'];
  const track = options.snapshots !== false;
  return [
    bashTool(ws, t, options.policy?.commands, track),
    readFileTool(ws, t),
    writeFileTool(ws, t, track),
    editFileTool(ws, t, track),
    globTool(ws, t),
    grepTool(ws, t),
    lsTool(ws, t),
  ];
}

/**
 * A tool's run that may change files: the workspace has a base snapshot before it, and after it (even
 * when it failed: a command can fail after writing) a snapshot and a `workspace_change` event if files changed.
 */
function changing<I>(
  ws: Workspace,
  tool: string,
  track: boolean,
  run: (input: I, ctx: ToolContext, change: ChangeContext) => Promise<string>,
): (input: I, ctx: ToolContext) => Promise<string> {
  return async (input, ctx) => {
    const change: ChangeContext = { runId: ctx.runId, callId: ctx.callId, tool, emit: ctx.parent?.emit };
    if (!track) return run(input, ctx, change);
    await ensureBase(ws, change);
    try {
      return await run(input, ctx, change);
    } finally {
      await recordChange(ws, change);
    }
  };
}

function bashTool(ws: Workspace, t: ToolTexts, policy: CommandPolicy | undefined, track: boolean): AnyTool {
  return defineTool({
    name: 'bash',
    description: t.bash,
    input: z.object({
      command: z.string().min(1).describe(t.bashCommand),
      cwd: z.string().optional().describe(t.cwd),
      timeoutMs: z.number().int().positive().optional().describe(t.timeoutMs),
    }),
    sequential: true,
    needsApproval: policy ? ({ command }) => decideCommand(policy, command).decision === 'ask' : undefined,
    run: async (input, ctx) => {
      const verdict = policy ? decideCommand(policy, input.command) : { decision: 'allow' as const };
      if (verdict.decision === 'deny')
        throw new Error(t.denied(verdict.command ? `${verdict.command}: ${verdict.reason}` : verdict.reason));
      return changing(ws, 'bash', track, async ({ command, cwd, timeoutMs }: typeof input, _ctx, change) => {
        const started = Date.now();
        const result = await ws.exec(command, { cwd, timeoutMs, signal: ctx.signal });
        change.emit?.({
          type: 'command_end',
          runId: change.runId,
          ts: Date.now(),
          callId: change.callId,
          command,
          exitCode: result.exitCode,
          stdout: result.stdout,
          stderr: result.stderr,
          ms: Date.now() - started,
          ...(result.limit ? { limit: result.limit } : {}),
        });
        return formatExec(result);
      })(input, ctx);
    },
  });
}

/** A command's result as the model reads it: the exit code, then each stream that said something. */
export function formatExec(result: ExecResult): string {
  const parts = [`exit code: ${result.exitCode}${result.limit ? ` (limit: ${result.limit})` : ''}`];
  if (result.stdout) parts.push(`stdout:\n${result.stdout}`);
  if (result.stderr) parts.push(`stderr:\n${result.stderr}`);
  return parts.join('\n');
}

function readFileTool(ws: Workspace, t: ToolTexts): AnyTool {
  return defineTool({
    name: 'read_file',
    description: t.readFile,
    input: z.object({
      path: z.string().describe(t.path),
      offset: z.number().int().min(1).optional().describe(t.offset),
      limit: z.number().int().min(1).optional().describe(t.limit),
    }),
    idempotent: true,
    run: async ({ path, offset = 1, limit = PAGE_LINES }) => {
      const text = await ws.readFile(path);
      if (text === '') return t.empty;
      const lines = text.replace(/\n$/, '').split('\n');
      const end = Math.min(lines.length, offset - 1 + limit);
      const width = String(end).length;
      const page = lines.slice(offset - 1, end).map((line, i) => `${String(offset + i).padStart(width)}\t${line}`);
      if (end < lines.length) page.push(t.moreLines(end + 1, lines.length));
      return page.join('\n');
    },
  });
}

function writeFileTool(ws: Workspace, t: ToolTexts, track: boolean): AnyTool {
  return defineTool({
    name: 'write_file',
    description: t.writeFile,
    input: z.object({ path: z.string().describe(t.path), content: z.string().describe(t.content) }),
    sequential: true,
    run: changing(ws, 'write_file', track, async ({ path, content }: { path: string; content: string }) => {
      await ws.writeFile(path, content);
      return t.wrote(path, new TextEncoder().encode(content).length);
    }),
  });
}

function editFileTool(ws: Workspace, t: ToolTexts, track: boolean): AnyTool {
  return defineTool({
    name: 'edit_file',
    description: t.editFile,
    input: z.object({
      path: z.string().describe(t.path),
      old_string: z.string().min(1).describe(t.oldString),
      new_string: z.string().describe(t.newString),
      replace_all: z.boolean().optional().describe(t.replaceAll),
    }),
    sequential: true,
    run: changing(ws, 'edit_file', track, async (input: EditInput) => {
      const { path, old_string, new_string, replace_all } = input;
      if (old_string === new_string) throw new Error(t.same);
      const text = await ws.readFile(path);
      const count = text.split(old_string).length - 1;
      if (count === 0) throw new Error(t.notFound(path));
      if (count > 1 && !replace_all) throw new Error(t.notUnique(path, count));
      // split/join, not replace: `$&` and friends in the new text stay as written.
      await ws.writeFile(path, text.split(old_string).join(new_string));
      return t.edited(path, count);
    }),
  });
}

interface EditInput {
  path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

function globTool(ws: Workspace, t: ToolTexts): AnyTool {
  return defineTool({
    name: 'glob',
    description: t.glob,
    input: z.object({ pattern: z.string().min(1).describe(t.pattern) }),
    idempotent: true,
    run: async ({ pattern }) => {
      const paths = await ws.glob(pattern);
      return paths.length > 0 ? paths.join('\n') : t.noFiles;
    },
  });
}

function grepTool(ws: Workspace, t: ToolTexts): AnyTool {
  return defineTool({
    name: 'grep',
    description: t.grep,
    input: z.object({
      pattern: z.string().min(1).describe(t.regex),
      path: z.string().optional().describe(t.grepPath),
      glob: z.string().optional().describe(t.grepGlob),
      ignore_case: z.boolean().optional().describe(t.ignoreCase),
    }),
    idempotent: true,
    run: async ({ pattern, path, glob, ignore_case }) => {
      if (path) await ws.stat(path);
      // Options that both ripgrep and just-bash's rg know; `./` keeps a path from reading as an option.
      const args = ['rg', '-n', '-H'];
      if (ignore_case) args.push('-i');
      if (glob) args.push('--glob', glob);
      args.push('-e', pattern, `./${relativePath(path ?? '')}`);
      const result = await ws.exec(args.map(shellQuote).join(' '));
      if (result.exitCode === 1 && !result.stderr) return t.noMatches;
      if (result.exitCode !== 0) throw new Error(result.stderr || `rg exited with ${result.exitCode}`);
      return result.stdout.replace(/^\.\//gm, '').trimEnd();
    },
  });
}

function lsTool(ws: Workspace, t: ToolTexts): AnyTool {
  return defineTool({
    name: 'ls',
    description: t.ls,
    input: z.object({ path: z.string().optional().describe(t.lsPath) }),
    idempotent: true,
    run: async ({ path }) => {
      const entries = await ws.list(path ?? '');
      if (entries.length === 0) return t.empty;
      return entries
        .map((e) =>
          e.type === 'directory' ? `${e.name}/` : `${e.name}\t${e.type === 'symlink' ? 'link' : `${e.size} B`}`,
        )
        .join('\n');
    },
  });
}

/** One word for bash, single-quoted. */
export function shellQuote(word: string): string {
  return /^[\w./=:@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
