import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from '@jest/globals';
import { createAddressPolicy } from './address-policy.js';
import { BlockedAddressError } from './errors.js';
import { createGuardedLookup, type Resolver, refusedAddress } from './guard.js';

/** A resolver whose answers change on every call, as a rebinding attacker's DNS server does. */
function rebindingResolver(answers: LookupAddress[][]): Resolver {
  let call = 0;
  return (_host, _options, callback) => callback(null, answers[Math.min(call++, answers.length - 1)] ?? []);
}

function lookupOnce(lookup: ReturnType<typeof createGuardedLookup>, all: boolean) {
  return new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
    lookup('rebind.example', { all }, (error, address) => resolve({ error, address })),
  );
}

describe('createGuardedLookup', () => {
  it('checks every resolution, so a name that rebinds to a private address is refused', async () => {
    const lookup = createGuardedLookup(
      createAddressPolicy(),
      rebindingResolver([[{ address: '93.184.216.34', family: 4 }], [{ address: '127.0.0.1', family: 4 }]]),
    );
    expect(await lookupOnce(lookup, false)).toEqual({ error: null, address: '93.184.216.34' });
    const second = await lookupOnce(lookup, false);
    expect(second.error).toMatchObject({ code: 'blocked_address' });
  });

  it('drops refused addresses from a mixed answer', async () => {
    const lookup = createGuardedLookup(
      createAddressPolicy(),
      rebindingResolver([
        [
          { address: '10.0.0.5', family: 4 },
          { address: '2606:4700::1', family: 6 },
          { address: '::ffff:192.168.0.1', family: 6 },
        ],
      ]),
    );
    expect(await lookupOnce(lookup, true)).toEqual({ error: null, address: [{ address: '2606:4700::1', family: 6 }] });
  });
});

describe('refusedAddress', () => {
  const fixed =
    (answer: LookupAddress[]): Resolver =>
    (_host, _options, callback) =>
      callback(null, answer);
  const failing: Resolver = (_host, _options, callback) =>
    callback(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }), []);

  it('names the refused address of a literal IP or a name that resolves only to refused ones', async () => {
    expect(await refusedAddress('http://127.0.0.1:8900/', createAddressPolicy())).toBe('127.0.0.1');
    expect(await refusedAddress('http://[::1]/', createAddressPolicy())).toBe('::1');
    const intranet = fixed([{ address: '10.1.2.3', family: 4 }]);
    expect(await refusedAddress('http://wiki.corp/', createAddressPolicy(), intranet)).toBe('10.1.2.3');
  });

  it('is null when the allow list or a public address lets it through, or when DNS cannot say', async () => {
    expect(await refusedAddress('http://127.0.0.1:8900/', createAddressPolicy(['127.0.0.1']))).toBeNull();
    const intranet = fixed([{ address: '10.1.2.3', family: 4 }]);
    expect(await refusedAddress('http://wiki.corp/', createAddressPolicy(['wiki.corp']), intranet)).toBeNull();
    expect(await refusedAddress('http://wiki.corp/', createAddressPolicy(['10.0.0.0/8']), intranet)).toBeNull();
    const mixed = fixed([
      { address: '10.1.2.3', family: 4 },
      { address: '93.184.216.34', family: 4 },
    ]);
    expect(await refusedAddress('http://a.example/', createAddressPolicy(), mixed)).toBeNull();
    expect(await refusedAddress('http://a.example/', createAddressPolicy(), failing)).toBeNull();
  });

  it('carries the refused address on the connect-time error', async () => {
    const lookup = createGuardedLookup(createAddressPolicy(), fixed([{ address: '192.168.1.9', family: 4 }]));
    const { error } = await lookupOnce(lookup, false);
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect((error as BlockedAddressError).address).toBe('192.168.1.9');
    expect((error as Error).message).toContain('QUARRY_ALLOW_HOSTS');
  });
});
