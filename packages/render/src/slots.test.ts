import { describe, expect, it } from '@jest/globals';
import { Slots } from './slots.js';

describe('Slots', () => {
  it('admits at most `size` holders and serves waiters in order', async () => {
    const slots = new Slots(2);
    await slots.acquire();
    await slots.acquire();
    const order: number[] = [];
    const third = slots.acquire().then(() => order.push(3));
    const fourth = slots.acquire().then(() => order.push(4));
    await Promise.resolve();
    expect(order).toEqual([]);
    expect(slots.inUse).toBe(2);
    slots.release();
    await third;
    expect(order).toEqual([3]);
    slots.release();
    await fourth;
    expect(order).toEqual([3, 4]);
    expect(slots.inUse).toBe(2);
  });

  it('rejects waiters on shutdown', async () => {
    const slots = new Slots(1);
    await slots.acquire();
    const waiting = slots.acquire();
    slots.rejectWaiting(new Error('closed'));
    await expect(waiting).rejects.toThrow('closed');
  });
});
