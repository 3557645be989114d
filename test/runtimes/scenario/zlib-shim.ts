/**
 * What a browser bundle gives just-bash for `node:zlib` (its browser build imports it for gzip): the
 * names it imports, failing only if a script runs gzip. An app that needs gzip there bundles a real one.
 */
const missing = () => {
  throw new Error('gzip is not available in this bundle');
};
export const gunzipSync = missing;
export const gzipSync = missing;
export const constants = { Z_BEST_COMPRESSION: 9, Z_BEST_SPEED: 1, Z_DEFAULT_COMPRESSION: -1 };
