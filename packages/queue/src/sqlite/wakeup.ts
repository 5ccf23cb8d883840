/** Lets idle in-process workers sleep until a timeout or until something changed (a task was added or ended). */
export class Wakeup {
  #waiters = new Set<() => void>();

  /** Resolves after `timeoutMs`, or earlier on {@link notify}. */
  wait(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#waiters.add(done);
    });
  }

  /** Wakes every waiter. */
  notify(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}
