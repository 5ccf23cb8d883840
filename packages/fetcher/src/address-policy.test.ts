import { describe, expect, it } from '@jest/globals';
import { createAddressPolicy, embeddedIPv4, isPublicAddress } from './address-policy.js';

describe('isPublicAddress', () => {
  it.each([
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '100.64.0.1',
    '100.127.255.254',
    '127.0.0.1',
    '127.255.255.255',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    'fec0::1',
    '2001:db8::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '::10.0.0.1',
    '64:ff9b::10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
    '2002:c0a8:101::1',
    '2001::1',
    '100::1',
    'not-an-ip',
    '',
  ])('refuses %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '93.184.216.34',
    '100.63.255.255',
    '100.128.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '192.0.1.1',
    '198.20.0.1',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('accepts %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it('finds the IPv4 address inside the standard IPv6 embeddings', () => {
    expect(embeddedIPv4('::ffff:192.168.0.1')).toBe('192.168.0.1');
    expect(embeddedIPv4('64:ff9b::c0a8:1')).toBe('192.168.0.1');
    expect(embeddedIPv4('2002:c0a8:1::')).toBe('192.168.0.1');
    expect(embeddedIPv4('::1')).toBeNull();
    expect(embeddedIPv4('2606:4700::1')).toBeNull();
  });
});

describe('createAddressPolicy', () => {
  it('refuses private addresses by default and allows public ones', () => {
    const policy = createAddressPolicy();
    expect(policy.allows('127.0.0.1')).toBe(false);
    expect(policy.allows('127.0.0.1', 'localhost')).toBe(false);
    expect(policy.allows('8.8.8.8', 'dns.google')).toBe(true);
  });

  it('allows listed addresses, ranges and names only', () => {
    const policy = createAddressPolicy(['127.0.0.1', '10.1.0.0/16', 'Intranet.Example.', '[fd00::5]']);
    expect(policy.allows('127.0.0.1')).toBe(true);
    expect(policy.allows('::ffff:127.0.0.1')).toBe(true);
    expect(policy.allows('127.0.0.2')).toBe(false);
    expect(policy.allows('10.1.200.3')).toBe(true);
    expect(policy.allows('10.2.0.1')).toBe(false);
    expect(policy.allows('fd00::5')).toBe(true);
    expect(policy.allows('192.168.1.1', 'intranet.example')).toBe(true);
    expect(policy.allows('192.168.1.1', 'other.example')).toBe(false);
  });

  it('rejects a malformed CIDR entry', () => {
    expect(() => createAddressPolicy(['10.0.0.0/40'])).toThrow(TypeError);
    expect(() => createAddressPolicy(['nonsense/8'])).toThrow(TypeError);
  });
});
