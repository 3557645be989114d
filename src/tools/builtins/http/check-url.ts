import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressProblem } from './classify-address.js';

/** One resolved address of a host. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (default: `dns.lookup` with `all: true`). */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

/** Which URLs http_get may fetch. */
export interface UrlPolicy {
  allowPrivateNetwork: boolean;
  /** Exact host names, or `*.example.com` for any subdomain. Empty: any host. */
  allowedHosts: string[];
  /** Hosts that may resolve to non-public addresses even when private networks are not allowed. */
  allowedPrivateHosts: string[];
  lookup: HostLookup;
}

/** A URL that passed the policy, with the one address the connection must use (pinned against DNS rebinding). */
export type UrlCheck =
  | { ok: true; url: URL; hostname: string; pinned: ResolvedAddress }
  | { ok: false; reason: string };

/** `dns.lookup(host, { all: true })`, the resolver the operating system uses. */
export const systemLookup: HostLookup = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

/**
 * Checks a URL against the policy: http(s) only, no credentials, an allowed host, and every address the
 * host resolves to must be public (unless allowed). The WHATWG parser has already turned decimal, octal and
 * hex IPv4 spellings (`2130706433`, `0x7f000001`, `0177.0.0.1`) into dotted form, so they are judged as IPs.
 */
export async function checkUrl(raw: string | URL, policy: UrlPolicy): Promise<UrlCheck> {
  let url: URL;
  try {
    url = typeof raw === 'string' ? new URL(raw) : raw;
  } catch {
    return { ok: false, reason: `"${raw}" is not a valid absolute URL (e.g. https://example.com/page).` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `Only http and https URLs can be fetched, not ${url.protocol}` };
  }
  if (url.username || url.password) return { ok: false, reason: 'URLs with user names or passwords are refused.' };
  const hostname = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (policy.allowedHosts.length > 0 && !matchesHost(hostname, policy.allowedHosts)) {
    return { ok: false, reason: `${hostname} is not an allowed host; allowed: ${policy.allowedHosts.join(', ')}.` };
  }
  let addresses: ResolvedAddress[];
  if (isIP(hostname)) addresses = [{ address: hostname, family: isIP(hostname) === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await policy.lookup(hostname);
    } catch {
      return { ok: false, reason: `Could not resolve the host ${hostname}.` };
    }
  }
  const pinned = addresses[0];
  if (!pinned) return { ok: false, reason: `The host ${hostname} has no addresses.` };
  const privateAllowed = policy.allowPrivateNetwork || matchesHost(hostname, policy.allowedPrivateHosts);
  if (!privateAllowed) {
    for (const { address } of addresses) {
      const problem = addressProblem(address);
      if (problem) {
        return {
          ok: false,
          reason: `Refused: ${hostname} resolves to ${address}, ${/^[aeiouAEIOU]/.test(problem) ? 'an' : 'a'} ${problem} address.`,
        };
      }
    }
  }
  return { ok: true, url, hostname, pinned };
}

/** Exact, case-insensitive host match, or `*.example.com` for subdomains of example.com. */
export function matchesHost(hostname: string, patterns: string[]): boolean {
  return patterns.some((pattern) => {
    const p = pattern.toLowerCase().replace(/^\[|\]$/g, '');
    if (p.startsWith('*.')) return hostname.endsWith(p.slice(1));
    return hostname === p;
  });
}
