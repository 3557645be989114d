import { thinkflowHome } from '../llm/index.js';

/** Where thinkflow keeps its data: `--data-dir`, else THINKFLOW_HOME (where `models pull` also puts models), else ~/.thinkflow. */
export function dataDir(flag?: string): string {
  return flag ?? thinkflowHome();
}
