import { nodeBuiltin } from '../core/index.js';

const FEATURE = 'The sandbox workspace network';

/** The hosts a sandbox may reach: `example.com`, `*.example.com`, or `host:port`. */
export interface SandboxNetwork {
  allow: string[];
}

/** A proxy on a unix socket that the sandbox's relay forwards to. */
export interface NetworkProxy {
  socketPath: string;
  close(): Promise<void>;
}

/**
 * Whether `host:port` is one the list names. A loopback or unspecified address is reachable only when an
 * entry names that exact address with its port (`127.0.0.1:8080`): the host's own servers stay closed
 * to a name that merely resolves there.
 */
export function hostAllowed(allow: readonly string[], host: string, port: number): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return allow.some((entry) => {
    const [pattern, entryPort] = splitHostPort(entry.toLowerCase());
    if (entryPort !== undefined && entryPort !== port) return false;
    if (pattern.startsWith('*.')) return name.endsWith(pattern.slice(1));
    return name === pattern;
  });
}

function splitHostPort(entry: string): [string, number | undefined] {
  const match = /^(.*):(\d+)$/.exec(entry);
  return match && !match[1].includes(':') ? [match[1], Number(match[2])] : [entry, undefined];
}

/** Loopback, unspecified, link-local and private addresses: the host's side of the network. */
export function isLocalAddress(address: string): boolean {
  return (
    /^(127\.|0\.|10\.|169\.254\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(address) ||
    /^(::1?|fe80:|fc|fd|::ffff:(127|10|0)\.)/i.test(address)
  );
}

/**
 * Starts the proxy that is a sandbox's only way out: HTTP `CONNECT host:port` (HTTPS) and plain
 * `GET http://host/…` requests, each to a host `allow` names and resolved here, never to a local address
 * unless named as such. Anything else is answered 403. It listens on a unix socket in a private folder;
 * the sandbox sees only that socket (its relay turns `127.0.0.1:3128` inside into it).
 */
export async function startNetworkProxy(
  network: SandboxNetwork,
  owner?: { uid: number; gid: number },
): Promise<NetworkProxy> {
  const net = nodeBuiltin('node:net', FEATURE);
  const { mkdtempSync, chownSync, rmSync } = nodeBuiltin('node:fs', FEATURE);
  const { tmpdir } = nodeBuiltin('node:os', FEATURE);
  const dir = mkdtempSync(`${tmpdir()}/thinkflow-proxy-`);
  const socketPath = `${dir}/proxy.sock`;
  const server = net.createServer((client) => handle(client, network.allow));
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, resolve));
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    chownSync(socketPath, owner.uid, owner.gid);
  }
  return {
    socketPath,
    close: () =>
      new Promise((resolve) =>
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        }),
      ),
  };
}

function handle(client: import('node:net').Socket, allow: readonly string[]): void {
  let head = Buffer.alloc(0);
  client.on('error', () => client.destroy());
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) {
      if (head.length > 64 * 1024) refuse(client, 431, 'request head too large');
      return;
    }
    client.off('data', onData);
    void forward(client, head, end, allow);
  };
  client.on('data', onData);
}

async function forward(client: import('node:net').Socket, head: Buffer, end: number, allow: readonly string[]) {
  const [requestLine, ...headers] = head.subarray(0, end).toString('latin1').split('\r\n');
  const [method, target, version] = requestLine.split(' ');
  const connect = method === 'CONNECT';
  const url = connect ? new URL(`http://${target}`) : safeUrl(target);
  if (!url || (!connect && url.protocol !== 'http:')) return refuse(client, 400, 'only CONNECT and http:// requests');
  const port = Number(url.port || (connect ? 443 : 80));
  const host = url.hostname;
  if (!hostAllowed(allow, host, port)) return refuse(client, 403, `${host}:${port} is not an allowed host`);
  let address: string;
  try {
    address = (await nodeBuiltin('node:dns', FEATURE).promises.lookup(host.replace(/^\[|\]$/g, ''))).address;
  } catch {
    return refuse(client, 502, `${host} does not resolve`);
  }
  if (isLocalAddress(address) && !allow.includes(`${host}:${port}`)) {
    return refuse(client, 403, `${host} resolves to a local address`);
  }
  const upstream = nodeBuiltin('node:net', FEATURE).connect(port, address);
  upstream.on('error', () => refuse(client, 502, `cannot reach ${host}:${port}`));
  upstream.on('connect', () => {
    if (connect) client.write(`${version ?? 'HTTP/1.1'} 200 Connection established\r\n\r\n`);
    else upstream.write(`${method} ${url.pathname}${url.search} ${version}\r\n${headers.join('\r\n')}\r\n\r\n`);
    const rest = head.subarray(end + 4);
    if (rest.length > 0) upstream.write(rest);
    client.pipe(upstream).pipe(client);
  });
}

function safeUrl(text: string | undefined): URL | undefined {
  try {
    return text ? new URL(text) : undefined;
  } catch {
    return undefined;
  }
}

function refuse(client: import('node:net').Socket, status: number, reason: string): void {
  const body = `thinkflow workspace network policy: ${reason}\n`;
  client.end(
    `HTTP/1.1 ${status} Refused\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
