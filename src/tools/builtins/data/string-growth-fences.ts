/** Longest text `repeat`, `lpad` and `rpad` may build in a query: 16 Mi characters. */
export const MAX_BUILT_CHARS = 16 * 1024 * 1024;

const TOO_LONG = `error('This would build a text of more than ${MAX_BUILT_CHARS} characters; the data tools refuse it.')`;

/**
 * Macros in the database's `main` schema, which DuckDB looks up before its built-in functions: the
 * functions that build one long value from a short input (`repeat('x', 1000000000)`) fail at once above
 * `MAX_BUILT_CHARS` instead of allocating gigabytes inside a single value, where neither `memory_limit`
 * nor an interrupt reaches. Each calls the built-in (`system.main.…`) otherwise. Anything else that grows
 * a value is still bounded by the query process's memory watchdog; these only make the common case fast.
 */
export const STRING_GROWTH_FENCES = [
  `CREATE MACRO main.repeat(s, n) AS CASE WHEN length(s) * n > ${MAX_BUILT_CHARS} THEN ${TOO_LONG} ELSE system.main.repeat(s, n) END`,
  `CREATE MACRO main.lpad(s, n, p) AS CASE WHEN n > ${MAX_BUILT_CHARS} THEN ${TOO_LONG} ELSE system.main.lpad(s, n, p) END`,
  `CREATE MACRO main.rpad(s, n, p) AS CASE WHEN n > ${MAX_BUILT_CHARS} THEN ${TOO_LONG} ELSE system.main.rpad(s, n, p) END`,
];
