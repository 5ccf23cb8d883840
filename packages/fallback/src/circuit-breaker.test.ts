import { describe, expect, it } from '@jest/globals';
import { CircuitBreaker } from './circuit-breaker.js';

describe('CircuitBreaker', () => {
  it('opens after N consecutive failures, lets one trial through after the cool-down', () => {
    let now = 0;
    const breaker = new CircuitBreaker({ failureThreshold: 3, cooldownMs: 1000, now: () => now });
    breaker.onFailure();
    breaker.onSuccess();
    breaker.onFailure();
    breaker.onFailure();
    expect(breaker.tryAcquire()).toBe(true);
    breaker.onFailure();
    expect(breaker.state).toBe('open');
    expect(breaker.tryAcquire()).toBe(false);
    now = 999;
    expect(breaker.tryAcquire()).toBe(false);
    now = 1000;
    expect(breaker.state).toBe('half-open');
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.tryAcquire()).toBe(false);
    breaker.onFailure();
    expect(breaker.tryAcquire()).toBe(false);
    now = 2000;
    expect(breaker.tryAcquire()).toBe(true);
    breaker.onSuccess();
    expect(breaker.state).toBe('closed');
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.tryAcquire()).toBe(true);
  });

  it('opens at once for a requested period, and frees the trial on cancel', () => {
    let now = 0;
    const breaker = new CircuitBreaker({ failureThreshold: 5, cooldownMs: 1000, now: () => now });
    breaker.onFailure(5000);
    expect(breaker.tryAcquire()).toBe(false);
    now = 4999;
    expect(breaker.tryAcquire()).toBe(false);
    now = 5000;
    expect(breaker.tryAcquire()).toBe(true);
    breaker.onCancel();
    expect(breaker.tryAcquire()).toBe(true);
  });
});
