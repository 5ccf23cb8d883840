import { describe, expect, it } from '@jest/globals';
import { ReplyError } from 'ioredis';
import { isRedisConnectionError } from './errors.js';

describe('isRedisConnectionError', () => {
  it('knows ioredis errors of a broken or not yet ready Redis', () => {
    const aborted = Object.assign(new Error('Command aborted due to connection close'), {
      name: 'AbortError',
      command: { name: 'evalsha', args: [] },
    });
    expect(isRedisConnectionError(aborted)).toBe(true);
    expect(isRedisConnectionError(new Error('Connection is closed.'))).toBe(true);
    expect(isRedisConnectionError(new ReplyError('LOADING Redis is loading the dataset in memory'))).toBe(true);
  });

  it('leaves other errors alone: a fetch aborted by its signal, a script bug, a page error', () => {
    expect(isRedisConnectionError(new DOMException('This operation was aborted', 'AbortError'))).toBe(false);
    expect(isRedisConnectionError(new ReplyError('ERR Error running script (call to f_1): bad argument'))).toBe(false);
    expect(isRedisConnectionError(new TypeError('Cannot read properties of undefined'))).toBe(false);
    expect(isRedisConnectionError('Connection is closed.')).toBe(false);
  });
});
