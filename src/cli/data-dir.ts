import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where thinkflow keeps its data: `--data-dir`, else THINKFLOW_HOME (where `models pull` also puts models), else ~/.thinkflow. */
export function dataDir(flag?: string): string {
  return flag ?? process.env.THINKFLOW_HOME ?? join(homedir(), '.thinkflow');
}
