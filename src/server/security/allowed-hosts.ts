/**
 * The names every server answers to whatever it is configured with: a page that reaches it under
 * another name (DNS rebinding: attacker.example resolving to 127.0.0.1) is refused, because to the
 * browser that page is same-origin with the server and could read every answer.
 */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const SIMPLE_HOST = /^([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)(?::\d{1,5})?$/;

/** The host name of a `Host` header value (`localhost:8787` → `localhost`, `[::1]:80` → `[::1]`), lowercased. */
export function hostName(host: string): string | undefined {
  // The common case without a URL parse: a plain name or IPv4 address, maybe a port.
  const plain = SIMPLE_HOST.exec(host);
  if (plain) return plain[1].toLowerCase();
  try {
    const url = new URL(`http://${host}`);
    // `new URL` accepts a path or credentials after the name; a Host header holds neither.
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
    return url.hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Whether a server answers requests for `name`: a loopback name (`localhost`, `*.localhost`,
 * `127.0.0.1`, `[::1]`) or one of `allowed` (exact names, `*.example.com` for its subdomains, or
 * `*` for any name: only behind a proxy that checks the name itself).
 */
export function isAllowedHost(name: string, allowed: readonly string[]): boolean {
  if (LOOPBACK.has(name) || name.endsWith('.localhost')) return true;
  return allowed.some((entry) => {
    // A URL where a name was meant (`https://agents.example.com`) still means its host.
    const trimmed = entry.trim().toLowerCase();
    const pattern = trimmed.includes('://') ? (URL.parse(trimmed)?.host ?? trimmed) : trimmed;
    if (pattern === '*') return true;
    if (pattern.startsWith('*.')) return name.endsWith(pattern.slice(1));
    return name === (hostName(pattern) ?? pattern);
  });
}

/**
 * The addresses a server bound to `hostname` is also reached at: a specific address (`--host 10.0.0.5`)
 * is the server's own, so it is allowed; a wildcard (`0.0.0.0`, `::`) names no host and adds nothing.
 */
export function boundHosts(hostname: string | undefined): string[] {
  if (!hostname || hostname === '0.0.0.0' || hostname === '::' || hostname === '[::]') return [];
  return [hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname];
}
