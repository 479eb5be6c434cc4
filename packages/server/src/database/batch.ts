/**
 * Gathers calls made within `windowMs` (or until `max` are waiting) and runs them as one `flush`;
 * each caller's promise settles with the flush that carried its item.
 */
export class Batch<T> {
  readonly #flush: (items: T[]) => Promise<void>;
  readonly #windowMs: number;
  readonly #max: number;
  #items: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(flush: (items: T[]) => Promise<void>, options: { windowMs?: number; max?: number } = {}) {
    this.#flush = flush;
    this.#windowMs = options.windowMs ?? 5;
    this.#max = options.max ?? 200;
  }

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#items.push({ item, resolve, reject });
      if (this.#items.length >= this.#max) this.#run();
      else this.#timer ??= setTimeout(() => this.#run(), this.#windowMs);
    });
  }

  #run(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const waiting = this.#items;
    this.#items = [];
    if (waiting.length === 0) return;
    this.#flush(waiting.map((w) => w.item)).then(
      () => {
        for (const w of waiting) w.resolve();
      },
      (error: unknown) => {
        for (const w of waiting) w.reject(error);
      },
    );
  }
}
