/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. Ids made close in time sort
 * close together, so the stores' indexes keyed by run id take inserts at their right edge and a
 * commit of many runs' writes touches a few pages, where random ids touch one page per run.
 */
export function newRunId(): string {
  const random = crypto.randomUUID();
  const ms = Date.now().toString(16).padStart(12, '0');
  // randomUUID() is 8-4-4-4-12 hex with "4" (the version) at index 14; keep its random tail and variant.
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${random.slice(15)}`;
}
