/** Options of {@link CircuitBreaker}. */
export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. @defaultValue 5 */
  readonly failureThreshold?: number;
  /** How long an open circuit rejects calls before letting one trial through. @defaultValue 30000 */
  readonly cooldownMs?: number;
  /** Clock, for tests. @defaultValue Date.now */
  readonly now?: () => number;
}

/**
 * Closed → (N consecutive failures, or a provider's "retry after") → open for a cool-down →
 * half-open: exactly one trial call; its success closes the circuit, its failure reopens it.
 */
export class CircuitBreaker {
  readonly #threshold: number;
  readonly #cooldownMs: number;
  readonly #now: () => number;
  #failures = 0;
  /** 0 while closed; else when the open period ends (after which one trial may run). */
  #openUntil = 0;
  #trialRunning = false;

  constructor(options: CircuitBreakerOptions = {}) {
    this.#threshold = Math.max(1, options.failureThreshold ?? 5);
    this.#cooldownMs = Math.max(0, options.cooldownMs ?? 30_000);
    this.#now = options.now ?? Date.now;
  }

  /** Whether a call may go out now; a true answer while half-open claims the single trial. */
  tryAcquire(): boolean {
    if (this.#openUntil === 0) return true;
    if (this.#now() < this.#openUntil || this.#trialRunning) return false;
    this.#trialRunning = true;
    return true;
  }

  /** The call succeeded: close the circuit. */
  onSuccess(): void {
    this.#failures = 0;
    this.#openUntil = 0;
    this.#trialRunning = false;
  }

  /** The call failed; `openForMs` (a provider's Retry-After) opens the circuit at once for that long. */
  onFailure(openForMs?: number): void {
    this.#failures += 1;
    const wasTrial = this.#trialRunning;
    this.#trialRunning = false;
    if (openForMs !== undefined) this.#openUntil = this.#now() + Math.max(openForMs, 0);
    else if (wasTrial || this.#failures >= this.#threshold) this.#openUntil = this.#now() + this.#cooldownMs;
  }

  /** The call ended without a verdict on the provider (the caller gave up): free the trial slot. */
  onCancel(): void {
    this.#trialRunning = false;
  }

  /** `closed`, `open` or `half-open`, for health reports. */
  get state(): 'closed' | 'open' | 'half-open' {
    if (this.#openUntil === 0) return 'closed';
    return this.#now() < this.#openUntil ? 'open' : 'half-open';
  }
}
