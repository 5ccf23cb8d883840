import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it } from '@jest/globals';
import { useEveryCore } from './util.js';

describe('useEveryCore', () => {
  const before = process.env.LANCE_CPU_THREADS;
  afterEach(() => {
    if (before === undefined) delete process.env.LANCE_CPU_THREADS;
    else process.env.LANCE_CPU_THREADS = before;
  });

  it("gives the engine's compute pool every core when the operator set nothing", () => {
    delete process.env.LANCE_CPU_THREADS;
    useEveryCore();
    expect(process.env.LANCE_CPU_THREADS).toBe(String(availableParallelism()));
  });

  it("keeps the operator's choice", () => {
    process.env.LANCE_CPU_THREADS = '1';
    useEveryCore();
    expect(process.env.LANCE_CPU_THREADS).toBe('1');
  });
});
