/**
 * `thinkflow/tools/node`: the built-in tools that need Node's file system or sockets: files in a root
 * folder, document search over a folder, `http_get` (DNS-pinned, private addresses refused), and every
 * kit by the name the CLI enables it with. The root entry has the tools that run everywhere.
 */
export {
  builtinTools,
  fileTools,
  type HttpGetOptions,
  httpGetTool,
  resolveInRoot,
  searchDocumentsTool,
} from '../tools/node.js';
