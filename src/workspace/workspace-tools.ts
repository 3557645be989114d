import { z } from 'zod';
import { type AnyTool, defineTool } from '../tools/index.js';
import { type CommandPolicy, decideCommand } from './command-policy.js';
import { TOOL_TEXTS, type ToolLanguage, type ToolTexts } from './tool-texts.js';
import type { ExecResult, Workspace } from './workspace.js';
import { relativePath } from './workspace-path.js';

/** Options of `workspaceTools`. */
export interface WorkspaceToolsOptions {
  /** Which commands `bash` runs, asks about or refuses (matched on the parsed script). Default: all run. */
  policy?: { commands?: CommandPolicy };
  /** The language of the tools' descriptions and messages. Default `en`. */
  language?: ToolLanguage;
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
  return [
    bashTool(ws, t, options.policy?.commands),
    readFileTool(ws, t),
    writeFileTool(ws, t),
    editFileTool(ws, t),
    globTool(ws, t),
    grepTool(ws, t),
    lsTool(ws, t),
  ];
}

function bashTool(ws: Workspace, t: ToolTexts, policy: CommandPolicy | undefined): AnyTool {
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
    run: async ({ command, cwd, timeoutMs }, ctx) => {
      const verdict = policy ? decideCommand(policy, command) : { decision: 'allow' as const };
      if (verdict.decision === 'deny')
        throw new Error(t.denied(verdict.command ? `${verdict.command}: ${verdict.reason}` : verdict.reason));
      return formatExec(await ws.exec(command, { cwd, timeoutMs, signal: ctx.signal }));
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

function writeFileTool(ws: Workspace, t: ToolTexts): AnyTool {
  return defineTool({
    name: 'write_file',
    description: t.writeFile,
    input: z.object({ path: z.string().describe(t.path), content: z.string().describe(t.content) }),
    sequential: true,
    run: async ({ path, content }) => {
      await ws.writeFile(path, content);
      return t.wrote(path, new TextEncoder().encode(content).length);
    },
  });
}

function editFileTool(ws: Workspace, t: ToolTexts): AnyTool {
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
    run: async ({ path, old_string, new_string, replace_all }) => {
      if (old_string === new_string) throw new Error(t.same);
      const text = await ws.readFile(path);
      const count = text.split(old_string).length - 1;
      if (count === 0) throw new Error(t.notFound(path));
      if (count > 1 && !replace_all) throw new Error(t.notUnique(path, count));
      // split/join, not replace: `$&` and friends in the new text stay as written.
      await ws.writeFile(path, text.split(old_string).join(new_string));
      return t.edited(path, count);
    },
  });
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
