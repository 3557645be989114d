/**
 * The virtual workspace in the runtime matrix: the app passes the `just-bash` module it bundled (a
 * browser or a Worker cannot import a package by name), runs shell tools over a Chinese CSV, and
 * snapshots, diffs and restores its files.
 */
import * as justBash from 'just-bash';
import { virtualWorkspace } from '../../../src/entries/workspace.js';

/** What the workspace part saw. */
export interface WorkspaceReport {
  total: string;
  diff: { added: string[]; modified: string[]; removed: string[] };
  restored: string[];
}

export async function runWorkspacePart(): Promise<WorkspaceReport> {
  const ws = await virtualWorkspace({ justBash, files: { '数据/销售.csv': '月份,金额\n一月,100\n二月,250\n' } });
  const sum = await ws.exec(
    'tail -n +2 数据/销售.csv | awk -F, \'{s+=$2} END {print "合计", s}\' > 报告.md && cat 报告.md',
  );
  const before = await ws.snapshot();
  await ws.writeFile('数据/销售.csv', '月份,金额\n');
  await ws.exec('rm 报告.md; echo 新 > 新.txt');
  const diff = await ws.diff(before);
  await ws.restore(before);
  const restored = await ws.glob('**/*');
  await ws.dispose();
  return { total: sum.stdout.trim(), diff, restored };
}
