/** What a socket error code means, in words a model (and a person reading the trace) can act on. */
const MEANINGS: Record<string, string> = {
  ENETUNREACH: 'the network is unreachable from here',
  EHOSTUNREACH: 'the host is unreachable from here',
  ECONNREFUSED: 'the connection was refused (nothing listens on that port)',
  ECONNRESET: 'the server closed the connection',
  ETIMEDOUT: 'the connection timed out',
  EADDRNOTAVAIL: 'the address cannot be used from here',
  EINVAL: 'the address cannot be connected to',
  EPROTO: 'the TLS handshake failed',
  ERR_STREAM_PREMATURE_CLOSE: 'the connection closed before the whole body arrived',
  Z_DATA_ERROR: 'the compressed body is corrupt',
  Z_BUF_ERROR: 'the compressed body is cut short',
};

/**
 * `Could not fetch URL: <meaning> (CODE).` for a failed exchange, so the observation says what happened
 * instead of `connect ENETUNREACH 224.0.0.1:80 - Local (0.0.0.0:0)`. TLS certificate errors keep Node's
 * own message, which already names the problem.
 */
export function readableNetworkError(error: unknown, url: URL): Error {
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const meaning = typeof code === 'string' ? MEANINGS[code] : undefined;
  if (meaning) return new Error(`Could not fetch ${url.href}: ${meaning} (${code}).`);
  return new Error(`Could not fetch ${url.href}: ${message}`);
}
