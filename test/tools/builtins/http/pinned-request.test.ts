import { describe, expect, it } from 'vitest';
import { pinnedRequest } from '../../../../src/tools/builtins/http/pinned-request.js';

/**
 * A TCP connect to a multicast address fails inside connect() itself with ENETUNREACH (Linux refuses it
 * before any packet is sent), the fastest failure there is. Before, the synchronous pinned lookup made
 * that failure fire before http attached its error handler: an uncaught 'error' (vitest reports it and
 * fails the run) and, over https, `Cannot read properties of null (reading 'setServername')`.
 */
describe('pinnedRequest with a connect that fails at once', () => {
  it.each([
    ['http', 'http://unreachable.test/', { address: '224.0.0.1', family: 4 as const }],
    ['https', 'https://unreachable.test/', { address: '224.0.0.1', family: 4 as const }],
    ['http over IPv6', 'http://unreachable.test/', { address: 'ff02::1', family: 6 as const }],
    ['https over IPv6', 'https://unreachable.test/', { address: 'ff02::1', family: 6 as const }],
  ])('rejects the promise (%s) and raises nothing else', async (_label, url, pinned) => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      await expect(
        pinnedRequest({ url: new URL(url), pinned, maxBytes: 1000, signal: AbortSignal.timeout(5000) }),
      ).rejects.toMatchObject({ code: 'ENETUNREACH' });
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
  });
});
