import type { ToolLanguage } from './tool-texts.js';
import type { Workspace } from './workspace.js';

/**
 * The short block of instructions an agent with a workspace gets: where it works, how paths go, and
 * the habits that make shell work reliable (look before editing, check the result).
 */
export function workspacePrompt(ws: Workspace, language: ToolLanguage = 'en'): string {
  const where = ws.kind === 'sandbox' ? 'a Linux sandbox' : 'an in-memory bash (coreutils, awk, sed, jq, rg)';
  return language === 'zh'
    ? `你在一个工作区中工作（${ws.kind === 'sandbox' ? 'Linux 沙箱' : '内存中的 bash 环境'}）。所有路径都相对于工作区根目录。先用 ls、glob、grep 和 read_file 查看，再用 edit_file 或 write_file 修改；运行命令后检查退出码和输出。没有网络，除非另有说明。`
    : `You work in a workspace (${where}). Every path is relative to the workspace root. Look first (ls, glob, grep, read_file), then change files with edit_file or write_file; after running a command, check its exit code and output. There is no network unless you are told otherwise.`;
}
