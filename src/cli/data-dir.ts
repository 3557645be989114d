import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where thinkflow keeps its data: `--data-dir`, else THINKFLOW_DATA_DIR, else ~/.thinkflow. */
export function dataDir(flag?: string): string {
  return flag ?? process.env.THINKFLOW_DATA_DIR ?? join(homedir(), '.thinkflow');
}
