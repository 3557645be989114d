/**
 * `thinkflow/tools/data`: read-only SQL over CSV, JSON and Parquet files in a folder (DuckDB).
 * Needs the optional peer `@duckdb/node-api`.
 */
export { dataTools } from '../tools/node.js';
