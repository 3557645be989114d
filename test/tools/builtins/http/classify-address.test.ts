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
  ])('%s is public', (address) => {
    expect(addressProblem(address)).toBeUndefined();
  });
});
