import {
  type ObservationReading,
  readingSimilarity,
  readObservation,
  rephrasedWithNews,
} from './observation-similarity.js';
import type { StopReason } from './stop-reason.js';

/**
 * Watches for the same observation step after step, or nearly the same ("未找到关于北京天气的信息" then
 * "未找到关于北京今日天气的信息"): at `limit` in a row a warning, one more and the run ends `loop_detected`.
 * A rephrased call whose alike observation still brings something new (other search results) is progress.
 */
export interface SameObservationTracker {
  /** `inputs`: the calls that produced the observation (a number they asked for, or a rephrasing with news, is progress). */
  check(observation: string, inputs?: ObservationReading['inputs']): { warning?: string; stop?: StopReason };
}

/** Options for `createSameObservationTracker`. */
export interface SameObservationOptions {
  /** Observations in a row before the warning. */
  limit: number;
  /** How similar two observations must be to count as the same, 0–1; 1 means identical only. */
  threshold: number;
}

export function createSameObservationTracker(options: SameObservationOptions): SameObservationTracker {
  const { limit, threshold } = options;
  // The last observation's reading keeps what was worked out about it, so each observation is analysed
  // once; an identical one needs no analysis at all.
  let last: ObservationReading | undefined;
  // The last few readings: what a rephrased call brings is news only when none of them said it, so
  // two queries in turn, each with its own result, still loop.
  const recent: ObservationReading[] = [];
  const remembered = Math.max(limit, 2);
  let count = 0;
  let exact = true;
  return {
    check(observation, inputs) {
      const identical = observation === last?.text;
      let same = identical;
      if (!identical) {
        const reading = readObservation(observation, inputs);
        same =
          last !== undefined &&
          readingSimilarity(reading, last, threshold) >= threshold &&
          !rephrasedWithNews(reading, recent);
        last = reading;
        if (recent.push(reading) > remembered) recent.shift();
      }
      count = same ? count + 1 : 1;
      exact = count === 1 ? true : exact && identical;
      const what = exact ? 'the same observation' : 'nearly the same observation';
      if (count === limit) {
        return {
          warning: `This is ${what} ${count} steps in a row: no progress. Change your approach or give the final answer.`,
        };
      }
      if (count > limit) {
        return {
          stop: {
            status: 'loop_detected',
            code: 'same_observation',
            message: `${exact ? 'The same' : 'Nearly the same'} observation came back ${count} steps in a row.`,
          },
        };
      }
      return {};
    },
  };
}
