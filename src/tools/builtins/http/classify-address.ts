import { BlockList, isIP } from 'node:net';

/** Non-public IPv4 ranges, each with the name a refusal message uses. */
const IPV4_RANGES: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved or broadcast'],
];

/** Non-public IPv6 ranges. Ranges that embed an IPv4 address are handled first, by checking that address. */
const IPV6_RANGES: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'IPv4-compatible (deprecated)'],
  ['100::', 64, 'discard-only'],
  ['2001::', 23, 'IETF protocol assignments (incl. Teredo)'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique local (private)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local (deprecated)'],
  ['ff00::', 8, 'multicast'],
];

const v4 = rangesList(IPV4_RANGES, 'ipv4');
const v6 = rangesList(IPV6_RANGES, 'ipv6');

/**
 * Why an IP address is not a public internet address (`'loopback'`, `'private'`, `'link-local …'` …),
 * or `undefined` when it is public. IPv4 addresses embedded in IPv6 are judged by the IPv4 address they
 * carry: IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`, the
 * local-use NAT64 prefix `64:ff9b:1::/48` (RFC 8215) and 6to4 `2002::/16`. IPv4-compatible `::a.b.c.d`
 * and Teredo `2001::/32` are refused outright. Anything that is not an IP is refused.
 */
export function addressProblem(address: string): string | undefined {
  const ip = address.replace(/^\[|\]$/g, '');
  const family = isIP(ip);
  if (family === 4) return rangeName(v4, ip, 'ipv4');
  if (family !== 6) return 'not an IP address';
  const embedded = embeddedIpv4(ip);
  if (embedded !== undefined) {
    const problems = embedded.flatMap((candidate) => {
      const problem = rangeName(v4, candidate, 'ipv4');
      return problem === undefined ? [] : [{ candidate, text: `${problem} (IPv4 ${candidate} inside IPv6)` }];
    });
    // Name the placement that means something: one in 0.0.0.0/8 is most likely the zero padding of another.
    return (problems.find((p) => !p.candidate.startsWith('0.')) ?? problems[0])?.text;
  }
  return rangeName(v6, ip, 'ipv6');
}

function rangeName(ranges: { list: BlockList; name: string }[], ip: string, type: 'ipv4' | 'ipv6'): string | undefined {
  return ranges.find((range) => range.list.check(ip, type))?.name;
}

function rangesList(ranges: [string, number, string][], type: 'ipv4' | 'ipv6'): { list: BlockList; name: string }[] {
  return ranges.map(([network, prefix, name]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, type);
    return { list, name };
  });
}

/**
 * The IPv4 addresses an IPv6 address may carry, or `undefined` when it is not a form that embeds one.
 * Most forms have one place for it; the local-use NAT64 prefix has several (see `nat64Candidates`).
 */
function embeddedIpv4(ip: string): string[] | undefined {
  const groups = expandIpv6(ip);
  if (groups === undefined) return undefined;
  const isZero = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  const bytes = groups.flatMap((g) => [g >> 8, g & 0xff]);
  const last32 = [bytesToIpv4(bytes, [12, 13, 14, 15])];
  if (isZero(0, 5) && groups[5] === 0xffff) return last32;
  if (isZero(0, 4) && groups[4] === 0xffff && groups[5] === 0) return last32;
  if (groups[0] === 0x64 && groups[1] === 0xff9b && isZero(2, 6)) return last32;
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups[2] === 0x0001) return nat64Candidates(bytes);
  if (groups[0] === 0x2002) return [bytesToIpv4(bytes, [2, 3, 4, 5])];
  return undefined;
}

/**
 * In `64:ff9b:1::/48` an operator picks any RFC 6052 prefix length from /48 to /96, and the IPv4 sits in a
 * different place for each (skipping the reserved bits 64–71). Which one the local NAT64 uses cannot be
 * known from here, so every placement is judged: an address is public only if all of them are.
 */
function nat64Candidates(bytes: number[]): string[] {
  return [
    bytesToIpv4(bytes, [12, 13, 14, 15]), // /96, the usual one
    bytesToIpv4(bytes, [9, 10, 11, 12]), // /64
    bytesToIpv4(bytes, [7, 9, 10, 11]), // /56
    bytesToIpv4(bytes, [6, 7, 9, 10]), // /48
  ];
}

function bytesToIpv4(bytes: number[], at: [number, number, number, number]): string {
  return at.map((i) => bytes[i] ?? 0).join('.');
}

/** Eight 16-bit groups of an IPv6 address (dotted IPv4 tails included). */
function expandIpv6(ip: string): number[] | undefined {
  let text = ip.toLowerCase().split('%')[0] ?? '';
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? left.length !== 8 : missing < 0) return undefined;
  const all = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right];
  return all.map((group) => Number.parseInt(group || '0', 16));
}
