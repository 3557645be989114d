import { describe, expect, it } from 'vitest';
import { runEndPublisher, subscribeRunEnds } from '../../../src/server/queue/run-ends.js';
import { TEST_REDIS, uniqueName } from '../pg-fixtures.js';

describe('run ends over Redis pub/sub', () => {
  it('reaches every subscriber of the same queue, and none of another queue', async () => {
    const location = { redisUrl: TEST_REDIS, queueName: uniqueName('runs'), prefix: uniqueName('tf') };
    const heard: string[] = [];
    const other: string[] = [];
    const a = await subscribeRunEnds(location, (id) => heard.push(`a:${id}`));
    const b = await subscribeRunEnds(location, (id) => heard.push(`b:${id}`));
    const c = await subscribeRunEnds({ ...location, queueName: uniqueName('other') }, (id) => other.push(id));
    const ends = runEndPublisher(location);
    try {
      await Promise.all([ends.publish('r1'), ends.publish('r2')]);
      await expect.poll(() => heard.length).toBe(4);
      expect(heard.sort()).toEqual(['a:r1', 'a:r2', 'b:r1', 'b:r2']);
      expect(other).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close(), c.close(), ends.close()]);
    }
  });
});
