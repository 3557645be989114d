/** How far the data tools' queries may go before they are stopped. */
export interface QueryLimits {
  /** DuckDB's own `memory_limit`, for the memory it manages (joins, aggregates, sorts). */
  duckdbMemoryBytes: number;
  /**
   * Resident memory of the whole query process (DuckDB, the strings and lists it builds outside its
   * `memory_limit`, and Node) before that process is killed and the query fails. Checked every 20 ms.
   */
  processMemoryBytes: number;
  /** Time one query may run: then it is interrupted, and the process is killed if it does not stop within 1 s. */
  timeMs: number;
  /** Characters per returned text cell; longer values are cut, so no single cell can flood the caller. */
  maxCellChars: number;
}

/** 256 MiB for DuckDB, 512 MiB for the query process, 30 s per query, 2000 characters per cell. */
export const DEFAULT_QUERY_LIMITS: QueryLimits = {
  duckdbMemoryBytes: 256 * 1024 * 1024,
  processMemoryBytes: 512 * 1024 * 1024,
  timeMs: 30_000,
  maxCellChars: 2000,
};
