import type { WorkspaceLimits } from './workspace.js';

/** Where the workspace folder appears inside the sandbox, and every command's home. */
export const SANDBOX_ROOT = '/workspace';

/** Where the network proxy's unix socket appears inside the sandbox, when `network.allow` names hosts. */
export const PROXY_SOCKET = '/run/thinkflow-proxy.sock';
/** The port the in-sandbox relay listens on (loopback of the sandbox's own network namespace). */
export const PROXY_PORT = 3128;

/** What one bwrap command line needs. */
export interface BwrapPlan {
  /** The workspace folder on the host (real path). */
  dir: string;
  /** The working folder, relative to the root. */
  cwd: string;
  env: Record<string, string>;
  limits: Required<WorkspaceLimits>;
  /** The host's unix socket of the network proxy, when hosts are allowed. */
  proxySocket?: string;
  /** Which of /bin, /lib, /lib64, /sbin are symlinks on the host (usr-merged), and to what. */
  hostLinks: Record<string, string | undefined>;
  command: string;
}

// The few files of /etc that programs need to start and to read text; nothing with secrets.
const ETC_FILES = [
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/alternatives',
  '/etc/localtime',
  '/etc/mime.types',
  '/etc/ssl/certs',
  '/etc/ca-certificates',
];

/**
 * The bubblewrap arguments for one command: every namespace unshared (no network: the sandbox has only
 * its own loopback), a fresh /proc, /dev and /tmp, the host's /usr read-only, a handful of /etc files,
 * the workspace folder the only writable host path, an empty environment but the variables given, and
 * the limits set with `ulimit` before the command starts (they bind every process it starts).
 */
export function bwrapArgs(plan: BwrapPlan): string[] {
  const { limits } = plan;
  const args = ['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--new-session'];
  args.push('--uid', '1000', '--gid', '1000', '--hostname', 'sandbox', '--clearenv');
  for (const [name, value] of Object.entries(sandboxEnv(plan))) args.push('--setenv', name, value);
  args.push('--ro-bind', '/usr', '/usr');
  for (const [link, target] of Object.entries(plan.hostLinks)) {
    if (target) args.push('--symlink', target, link);
    else args.push('--ro-bind-try', link, link);
  }
  for (const file of ETC_FILES) args.push('--ro-bind-try', file, file);
  args.push('--proc', '/proc', '--dev', '/dev');
  args.push('--size', String(Math.min(limits.diskBytes, 256 * 1024 * 1024)), '--tmpfs', '/tmp');
  args.push('--bind', plan.dir, SANDBOX_ROOT);
  if (plan.proxySocket) args.push('--dir', '/run', '--bind', plan.proxySocket, PROXY_SOCKET);
  args.push('--chdir', plan.cwd === '' ? SANDBOX_ROOT : `${SANDBOX_ROOT}/${plan.cwd}`);
  args.push('--', '/bin/bash', '--noprofile', '--norc', '-c', prelude(plan), 'bash', plan.command);
  return args;
}

/** The environment inside: a fixed base, the proxy's variables when hosts are allowed, then the caller's. */
function sandboxEnv(plan: BwrapPlan): Record<string, string> {
  const proxy = `http://127.0.0.1:${PROXY_PORT}`;
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: SANDBOX_ROOT,
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TMPDIR: '/tmp',
    TERM: 'dumb',
    ...(plan.proxySocket
      ? { HTTP_PROXY: proxy, HTTPS_PROXY: proxy, http_proxy: proxy, https_proxy: proxy, NO_PROXY: '', no_proxy: '' }
      : {}),
    ...plan.env,
  };
}

/**
 * The shell line that sets the limits and then replaces itself with the command (`$1`): virtual
 * memory, processes (counted in the sandbox's own user namespace), the size of any one file, no core
 * dumps; with allowed hosts, first a relay from the sandbox's loopback to the proxy's socket.
 */
function prelude(plan: BwrapPlan): string {
  const { limits } = plan;
  const kb = (bytes: number) => Math.max(1, Math.floor(bytes / 1024));
  const relay = plan.proxySocket
    ? `socat TCP-LISTEN:${PROXY_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${PROXY_SOCKET} 2>/dev/null & ` +
      `for i in 1 2 3 4 5 6 7 8 9 10; do (exec 3<>/dev/tcp/127.0.0.1/${PROXY_PORT}) 2>/dev/null && break; sleep 0.02; done; `
    : '';
  return (
    `${relay}ulimit -c 0 && ulimit -v ${kb(limits.memoryBytes)} && ulimit -u ${limits.processes} && ` +
    `ulimit -f ${kb(limits.diskBytes)} && exec /bin/bash --noprofile --norc -c "$1"`
  );
}
