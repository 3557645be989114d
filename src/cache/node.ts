/** cache/'s Node face: the reply cache kept in a SQLite file. */
export { SqliteCacheStore, withCache } from './sqlite-cache-store.js';
