/** Cron schedules that start runs. */
export { type Cron, type CronResult, nextCronTime, type ParseCronOptions, parseCron } from './parse-cron.js';
export { type ScheduleConfig, startSchedules } from './start-schedules.js';
