/**
 * Options every built-in tool factory accepts, so the CLI can build them all from the same flags
 * (`--tools files,data --root ./data --allow-write`). Each factory reads only the fields it needs.
 */
export interface BuiltinOptions {
  /** Folder the file, data, chart and search tools are confined to. Default: the working directory. */
  root?: string;
  /** Lets the files tools write, move and delete (each call still asks for approval). Default false. */
  allowWrite?: boolean;
  /** Where charts are written (set by the user, not the model). Default `<root>/charts`. */
  outDir?: string;
  /** Lets http_get reach loopback, private, link-local and other non-public addresses. Default false. */
  allowPrivateNetwork?: boolean;
  /** When set, http_get fetches only these hosts (exact names, or `*.example.com` for subdomains). */
  allowedHosts?: string[];
  /** Hosts http_get may reach even when they resolve to a non-public address (e.g. an intranet server). */
  allowedPrivateHosts?: string[];
  /** Largest file (or HTTP body) a tool reads, in bytes. Default 1 MiB. */
  maxReadBytes?: number;
  /** Largest tool output, in characters, before it is cut. Default 8000. */
  maxOutputChars?: number;
  /** Per-request time limit for network tools, in ms. Default 10000. */
  timeoutMs?: number;
  /** Time one data or chart query may run before it is stopped, in ms. Default 30000. */
  dataTimeoutMs?: number;
  /** Memory the data tools' query process (DuckDB) may hold before the query is stopped, in bytes. Default 512 MiB. */
  dataMemoryBytes?: number;
}
