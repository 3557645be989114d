import type { RunStatus } from '../../core/index.js';

/** Why a guard stopped the run: the status it ends with and a message for the user. */
export interface StopReason {
  status: Exclude<RunStatus, 'done'>;
  code: string;
  message: string;
}
