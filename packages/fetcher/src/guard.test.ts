import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from '@jest/globals';
import { createAddressPolicy } from './address-policy.js';
import { createGuardedLookup, type Resolver } from './guard.js';

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
    expect(second.error).toMatchObject({ code: 'ssrf_blocked' });
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
