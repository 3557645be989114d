import { ConfigError } from '../../core/index.js';
import type { RunService } from '../records/index.js';
import { nextCronTime, parseCron } from './parse-cron.js';

/** A cron trigger: start `agent` with `input` at every time `cron` matches. */
export interface ScheduleConfig {
  /** Five-field cron (see `parseCron`): `"*\/15 * * * *"`, `"0 9 * * MON-FRI"`, `"@daily"`, `"0 18 L * *"`. */
  cron: string;
  /** IANA time zone the cron is read in (`"America/New_York"`). Default: the server's local zone. */
  timezone?: string;
  agent: string;
  input: string;
}

/**
 * Starts each schedule's runs at the times its cron matches, until the returned `stop` is called.
 * A bad expression or unknown agent is a ConfigError at start, not a silent no-op.
 */
export function startSchedules(
  schedules: readonly ScheduleConfig[],
  runs: RunService,
  options: { now?: () => Date; onError?: (error: unknown) => void } = {},
): () => void {
  const now = options.now ?? (() => new Date());
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const parsed = schedules.map((schedule) => {
    const result = parseCron(schedule.cron, { timezone: schedule.timezone });
    if (!result.ok) {
      throw new ConfigError({
        message: `Schedule "${schedule.cron}" is not valid: ${result.reason}. Fix "cron"${schedule.timezone === undefined ? '' : ' or "timezone"'} in schedules.`,
      });
    }
    if (!runs.agentNames().includes(schedule.agent)) {
      throw new ConfigError({
        message: `Schedule "${schedule.cron}" names agent "${schedule.agent}", which is not configured.`,
      });
    }
    return { schedule, cron: result.cron };
  });

  function arm(entry: (typeof parsed)[number]): void {
    if (stopped) return;
    const at = nextCronTime(entry.cron, now());
    if (!at) return;
    // Long delays are re-armed in hops: setTimeout cannot wait more than ~24.8 days.
    const delay = Math.min(at.getTime() - now().getTime(), 2 ** 31 - 1);
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        if (now().getTime() >= at.getTime() - 5) {
          runs
            .start({ agent: entry.schedule.agent, input: entry.schedule.input, source: 'schedule' })
            .catch(options.onError);
        }
        arm(entry);
      },
      Math.max(0, delay),
    );
    timer.unref();
    timers.add(timer);
  }

  for (const entry of parsed) arm(entry);
  return () => {
    stopped = true;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
}
