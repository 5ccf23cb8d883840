import { describe, expect, it } from '@jest/globals';
import { shutDown } from './signals.js';

const logged = () => {
  const lines: unknown[] = [];
  return { lines, logger: { error: (fields: unknown, msg: string) => lines.push([fields, msg]) } };
};

describe('shutDown', () => {
  it('closes the steps in order and exits nothing when they end in time', async () => {
    const order: string[] = [];
    const exits: number[] = [];
    const { lines, logger } = logged();
    await shutDown(
      logger as never,
      [
        ['the API', async () => order.push('api')],
        ['the queues', () => order.push('queues')],
      ],
      { deadlineMs: 200, exit: (code) => exits.push(code) as never },
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(order).toEqual(['api', 'queues']);
    expect(exits).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('exits with 1 at the deadline when a step never ends, naming it', async () => {
    const exits: number[] = [];
    const { lines, logger } = logged();
    void shutDown(
      logger as never,
      [
        ['the API', () => undefined],
        ['the queues', () => new Promise(() => {})],
      ],
      { deadlineMs: 100, exit: (code) => exits.push(code) as never },
    );
    await new Promise((r) => setTimeout(r, 250));
    expect(exits).toEqual([1]);
    expect(lines).toEqual([[{ waitingOn: 'the queues', deadlineMs: 100 }, 'shutdown did not finish in time: exiting']]);
  });
});
