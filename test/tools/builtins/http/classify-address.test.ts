import { describe, expect, it } from 'vitest';
import { addressProblem } from '../../../../src/tools/builtins/http/classify-address.js';

describe('addressProblem', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'CGNAT'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['fe80::1', 'link-local'],
    ['fd12:3456::1', 'unique local'],
    ['::ffff:127.0.0.1', 'loopback (IPv4 127.0.0.1 inside IPv6)'],
    ['::ffff:7f00:1', 'loopback (IPv4 127.0.0.1 inside IPv6)'],
    ['[::ffff:a9fe:a9fe]', 'link-local (cloud metadata) (IPv4 169.254.169.254 inside IPv6)'],
    ['64:ff9b::a00:1', 'private (IPv4 10.0.0.1 inside IPv6)'],
    ['2002:c0a8:101::1', 'private (IPv4 192.168.1.1 inside IPv6)'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['::ffff:0:7f00:1', 'loopback (IPv4 127.0.0.1 inside IPv6)'],
    ['::ffff:0:10.0.0.1', 'private (IPv4 10.0.0.1 inside IPv6)'],
    ['64:ff9b:1::a00:1', 'private (IPv4 10.0.0.1 inside IPv6)'],
    ['64:ff9b:1::7f00:1', 'loopback (IPv4 127.0.0.1 inside IPv6)'],
    ['64:ff9b:1::169.254.169.254', 'link-local (cloud metadata) (IPv4 169.254.169.254 inside IPv6)'],
    // /48 placement: 127.0.0.1 for a NAT64 using a /48 prefix, though the last 32 bits spell 8.8.8.8.
    ['64:ff9b:1:7f00:0:100:808:808', 'loopback (IPv4 127.0.0.1 inside IPv6)'],
    ['64:ff9b:1:a9fe:a9:fe00::', 'link-local (cloud metadata) (IPv4 169.254.'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001:db8::1', 'documentation'],
    ['64:ff9b:1::', 'unspecified'],
    ['localhost', 'not an IP address'],
  ])('%s is %s', (address, problem) => {
    expect(addressProblem(address)).toContain(problem);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    // 8.8.8.8 in every RFC 6052 placement of the local-use NAT64 prefix.
    '64:ff9b:1:808:8:808:808:808',
    '2002:808:808::1',
  ])('%s is public', (address) => {
    expect(addressProblem(address)).toBeUndefined();
  });
});
