import type { DuckDBConnection } from '@duckdb/node-api';
import { importOptional } from '../../../core/index.js';

/** Why a query was refused, or nothing when it is a single read-only SELECT. */
export type SelectCheck = { ok: true } | { ok: false; reason: string };

const FIRST_WORDS = new Set(['select', 'with', 'from', 'values', '(']);

const REFUSED =
  /^(copy|export|import|attach|detach|install|load|pragma|set|reset|call|explain|create|insert|update|delete|drop|alter|use|checkpoint|vacuum|begin|commit|rollback|prepare|execute)$/;

/**
 * Accepts exactly one read-only SELECT (`SELECT`, `WITH … SELECT`, DuckDB's `FROM …`), and refuses the rest
 * with a reason the model can act on. Two checks: a lexical look at the first keyword (clear messages), then
 * DuckDB's own parser, which must find one statement, serialisable as a SELECT and prepared as type SELECT (so `WITH x AS (…) INSERT …`,
 * `EXPLAIN ANALYZE` and `SELECT 1; COPY …` are refused however they are spelled).
 */
export async function checkReadOnlySelect(connection: DuckDBConnection, sql: string): Promise<SelectCheck> {
  const first = firstWord(sql);
  if (first === undefined) return { ok: false, reason: 'The query is empty; write one SELECT statement.' };
  if (REFUSED.test(first)) {
    return {
      ok: false,
      reason: `${first.toUpperCase()} is not allowed: only a single read-only SELECT query can run.`,
    };
  }
  if (!FIRST_WORDS.has(first)) {
    return { ok: false, reason: `Queries must start with SELECT, WITH or FROM, not "${first}".` };
  }
  let extracted: Awaited<ReturnType<DuckDBConnection['extractStatements']>>;
  try {
    extracted = await connection.extractStatements(sql);
  } catch (error) {
    return { ok: false, reason: `The query does not parse: ${firstLine(error)}` };
  }
  if (extracted.count !== 1) {
    return { ok: false, reason: `Only one statement can run at a time; found ${extracted.count}.` };
  }
  const serialized = await onlySelect(connection, sql);
  if (!serialized.ok) return serialized;
  try {
    const prepared = await extracted.prepare(0);
    const type = prepared.statementType;
    prepared.destroySync();
    const { StatementType } = await importOptional<typeof import('@duckdb/node-api')>('data', '@duckdb/node-api');
    if (type !== StatementType.SELECT) {
      return { ok: false, reason: NOT_SELECT };
    }
  } catch (error) {
    return { ok: false, reason: firstLine(error) };
  }
  return { ok: true };
}

const NOT_SELECT = 'Only a read-only SELECT query can run (this statement would change something).';

/** DuckDB's parser (without binding) serialises SELECT statements only, so anything else is named here. */
async function onlySelect(connection: DuckDBConnection, sql: string): Promise<SelectCheck> {
  const literal = `'${sql.replaceAll("'", "''")}'`;
  try {
    const reader = await connection.runAndReadAll(`SELECT json_serialize_sql(${literal})`);
    const json = JSON.parse(String(reader.getRowsJson()[0]?.[0])) as { error?: boolean; error_message?: string };
    if (!json.error) return { ok: true };
    if (/Only SELECT/i.test(json.error_message ?? '')) return { ok: false, reason: NOT_SELECT };
    return { ok: false, reason: `The query does not parse: ${json.error_message}` };
  } catch (error) {
    return { ok: false, reason: `The query does not parse: ${firstLine(error)}` };
  }
}

/** The first keyword, skipping whitespace and comments; `(` for a parenthesised query. */
function firstWord(sql: string): string | undefined {
  const rest = sql.replace(/^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/, '');
  if (rest.startsWith('(')) return '(';
  const match = /^[A-Za-z_]+/.exec(rest);
  return match ? match[0].toLowerCase() : rest.length ? rest[0] : undefined;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
