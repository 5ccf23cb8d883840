import { describe, expect, it } from '@jest/globals';
import { builtModuleUrl, WorkerPool } from './worker-pool.js';

describe('builtModuleUrl', () => {
  it('finds a built module beside the built caller, and under dist/ for a caller run from its source', () => {
    const name = 'w.js';
    expect(builtModuleUrl('file:///r/packages/p/dist/x.js', name).href).toBe('file:///r/packages/p/dist/w.js');
    expect(builtModuleUrl('file:///r/packages/p/src/x.ts', name).href).toBe('file:///r/packages/p/dist/w.js');
    expect(builtModuleUrl('file:///r/src/packages/p/src/cmd/x.ts', name).href).toBe(
      'file:///r/src/packages/p/dist/cmd/w.js',
    );
  });
});

describe('WorkerPool', () => {
  it('rejects at once (so that the caller does the work) when its threads cannot start, and again later', async () => {
    const pool = new WorkerPool<number, number>(new URL('file:///nonexistent/quarry-worker.js'), 1);
    try {
      await expect(pool.run([1])).rejects.toThrow();
      await expect(pool.run([2])).rejects.toThrow();
    } finally {
      await pool.close();
    }
  });

  it('has no threads to run on when made with none', async () => {
    const pool = new WorkerPool<number, number>(new URL('file:///nonexistent/quarry-worker.js'), 0);
    expect(pool.size).toBe(0);
    await expect(pool.run([1])).rejects.toThrow('no worker threads');
  });
});
