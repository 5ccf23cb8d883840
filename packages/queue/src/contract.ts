import { describe } from '@jest/globals';
import { describeCrawlContract } from './contract/crawl-contract.js';
import { describeFingerprintContract } from './contract/fingerprint-contract.js';
import { describeForget } from './contract/forget-contract.js';
import type { OpenQueues } from './contract/helpers.js';
import { describeHosts } from './contract/hosts-contract.js';
import { describeIndexContract } from './contract/index-contract.js';
import { describeRequeue } from './contract/requeue-contract.js';

export type { OpenQueues } from './contract/helpers.js';

/**
 * The one contract every queue backend passes; each backend's test file calls it with a factory
 * that opens fresh, empty queues. Test-only: it imports Jest, so it is not part of the package's
 * public entry point.
 */
export function describeQueueContract(name: string, open: OpenQueues): void {
  describe(`queue contract: ${name}`, () => {
    describe('crawl queue', () => describeCrawlContract(open));
    describe('index queue', () => describeIndexContract(open));
    describeRequeue(open);
    describeHosts(open);
    describeForget(open);
    describeFingerprintContract(open);
  });
}
