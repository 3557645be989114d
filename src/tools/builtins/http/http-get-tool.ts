import { z } from 'zod';
import { assertPeers } from '../../../core/index.js';
import { defineTool, type Tool } from '../../tool.js';
import type { BuiltinOptions } from '../builtin-options.js';
import { capText } from '../shared/cap-text.js';
import { formatBytes } from '../shared/format-bytes.js';
import { checkUrl, type HostLookup, systemLookup, type UrlPolicy } from './check-url.js';
import { pinnedRequest } from './pinned-request.js';
import { readableNetworkError } from './readable-network-error.js';
import { htmlToReadableText } from './readable-text.js';

/** Options for `httpGetTool`, on top of the shared built-in options. */
export interface HttpGetOptions extends BuiltinOptions {
  /** Redirects followed at most. Default 5. */
  maxRedirects?: number;
  /** Replaces DNS resolution (tests, or a custom resolver). Default: `dns.lookup` with `all: true`. */
  lookup?: HostLookup;
}

const HttpGetInput = z.object({
  url: z.string().describe('Absolute http(s) URL, e.g. https://example.com/page'),
});

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * `http_get`: fetches a public web page and returns it as readable text. Refuses loopback, private,
 * link-local, CGNAT and other non-public addresses (however the IP is spelled, and after DNS), again on
 * every redirect, unless `allowPrivateNetwork` or `allowedPrivateHosts` says otherwise; connects only to
 * the address it checked; caps the body at `maxReadBytes`, the time at `timeoutMs` and the text at `maxOutputChars`.
 * Needs the optional peer `html-to-text` (`npm install html-to-text`), which reads the pages.
 *
 * @example
 * const tools = [httpGetTool({ allowedHosts: ['*.wikipedia.org'] })];
 */
export function httpGetTool(options: HttpGetOptions = {}): Tool<z.infer<typeof HttpGetInput>, string> {
  assertPeers('html');
  const policy: UrlPolicy = {
    allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    allowedHosts: options.allowedHosts ?? [],
    allowedPrivateHosts: options.allowedPrivateHosts ?? [],
    lookup: options.lookup ?? systemLookup,
  };
  const maxBytes = options.maxReadBytes ?? 1024 * 1024;
  const maxChars = options.maxOutputChars ?? 8000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxRedirects = options.maxRedirects ?? 5;
  return defineTool({
    name: 'http_get',
    description: 'Fetch a web page (http/https GET) and return its readable text.',
    input: HttpGetInput,
    idempotent: true,
    timeoutMs: timeoutMs + 1000,
    run: async (input, ctx) => {
      // A timer we hold, not `AbortSignal.timeout`: combined by `AbortSignal.any`, that signal is only weakly
      // held and a garbage collection (e.g. after decoding a large body) can drop it so it never fires.
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), timeoutMs);
      try {
        return await fetchFollowingRedirects(input.url, AbortSignal.any([ctx.signal, deadline.signal]), ctx.signal);
      } finally {
        clearTimeout(timer);
      }
    },
  });

  async function fetchFollowingRedirects(url: string, signal: AbortSignal, callSignal: AbortSignal): Promise<string> {
    let target: string | URL = url;
    for (let hop = 0; hop <= maxRedirects; hop++) {
      const checked = await checkUrl(target, policy);
      if (!checked.ok) throw new Error(hop === 0 ? checked.reason : `Redirect refused: ${checked.reason}`);
      const response = await pinnedRequest({ url: checked.url, pinned: checked.pinned, maxBytes, signal }).catch(
        (error: unknown) => {
          if (signal.aborted && !callSignal.aborted)
            throw new Error(`${checked.url.href} timed out after ${timeoutMs} ms.`);
          if (callSignal.aborted) throw error;
          throw readableNetworkError(error, checked.url);
        },
      );
      const location = response.headers.location;
      if (REDIRECTS.has(response.status) && location) {
        target = new URL(location, checked.url);
        continue;
      }
      return describeResponse(checked.url, response, maxBytes, maxChars);
    }
    throw new Error(`Too many redirects (more than ${maxRedirects}).`);
  }
}

function describeResponse(
  url: URL,
  response: Awaited<ReturnType<typeof pinnedRequest>>,
  maxBytes: number,
  maxChars: number,
): string {
  const type = String(response.headers['content-type'] ?? 'application/octet-stream');
  const head = `URL: ${url.href}\nStatus: ${response.status}\nContent-Type: ${type}`;
  if (!/^(text\/|application\/(json|xml|xhtml\+xml|javascript|ld\+json)|[^;]*\+(json|xml))/i.test(type)) {
    return `${head}\n\n[binary content (${formatBytes(response.body.length)}${response.truncated ? '+' : ''}) not shown]`;
  }
  const raw = response.body.toString('utf8');
  const text = /html/i.test(type) ? htmlToReadableText(raw) : raw;
  const cut = response.truncated ? `\n[body cut at the ${formatBytes(maxBytes)} size limit]` : '';
  return capText(`${head}\n\n${text}${cut}`, maxChars);
}
