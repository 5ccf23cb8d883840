/** A counting semaphore with a FIFO queue: at most `size` holders at once. */
export class Slots {
  readonly #size: number;
  #held = 0;
  readonly #waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];

  constructor(size: number) {
    this.#size = size;
  }

  /** Resolves when a slot is free; the caller must `release()` it exactly once. */
  acquire(): Promise<void> {
    if (this.#held < this.#size) {
      this.#held += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next) next.resolve();
    else this.#held -= 1;
  }

  /** Rejects everyone still waiting (on shutdown). */
  rejectWaiting(error: Error): void {
    for (const waiter of this.#waiting.splice(0)) waiter.reject(error);
  }

  get inUse(): number {
    return this.#held;
  }
}
