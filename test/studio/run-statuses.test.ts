import { describe, expect, it } from 'vitest';
import { isFinished, ServerRunStatus } from '../../src/server/index.js';
import { STATUSES, UNFINISHED } from '../../src/studio/client/run-statuses.js';

describe('the studio page’s run statuses', () => {
  it('are the server’s, so a run stopped at max_steps or a budget counts as finished and can be filtered', () => {
    expect([...STATUSES].sort()).toEqual([...ServerRunStatus.options].sort());
    for (const status of ServerRunStatus.options) expect(UNFINISHED.includes(status), status).toBe(!isFinished(status));
  });
});
