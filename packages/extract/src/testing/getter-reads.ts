/**
 * Runs `run` while the `name` getter that `target` inherits (a DOM's `children`, `textContent`,
 * `outerHTML`) counts the reads of the elements `counted` accepts; the getter is restored after.
 * Tests count a step's work with it, which holds on any machine where a time would not.
 */
export function withCountedGetter<T>(
  target: object,
  name: string,
  counted: (el: Element) => boolean,
  run: () => T,
): { result: T; reads: number } {
  let owner: object | null = target;
  while (owner !== null && !Object.hasOwn(owner, name)) owner = Object.getPrototypeOf(owner);
  if (owner === null) throw new Error(`no ${name} getter to count`);
  const descriptor = Object.getOwnPropertyDescriptor(owner, name) as PropertyDescriptor;
  let reads = 0;
  Object.defineProperty(owner, name, {
    ...descriptor,
    get(this: Element) {
      if (counted(this)) reads++;
      return descriptor.get?.call(this);
    },
  });
  try {
    return { result: run(), reads };
  } finally {
    Object.defineProperty(owner, name, descriptor);
  }
}
