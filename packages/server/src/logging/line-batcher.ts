/** Where batched lines go: pino's own destination (sonic-boom), synchronous. */
export interface LineSink {
  write(chunk: string): unknown;
  flushSync(): void;
}

/**
 * A pino destination that joins the lines written during one turn of the event loop and hands them
 * to `sink` in one write at the end of the turn (or at once past `limit` characters). Under load a
 * turn answers several requests, and one write of their access-log lines costs what one line did;
 * sonic-boom's own buffering (`minLength`) measures the whole buffer on every line, which cost more
 * than the write it saved. Lines keep their order and wait at most one turn.
 */
export class LineBatcher {
  #pending = "";
  #scheduled = false;
  readonly #sink: LineSink;
  readonly #limit: number;

  constructor(sink: LineSink, limit = 16 * 1024) {
    this.#sink = sink;
    this.#limit = limit;
  }

  write(chunk: string): boolean {
    this.#pending += chunk;
    if (this.#pending.length >= this.#limit) this.#drain();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#endOfTurn);
    }
    return true;
  }

  /** What pino's `logger.flush()` calls: everything pending is written before `done`. */
  flush(done?: (error?: Error) => void): void {
    try {
      this.flushSync();
    } catch (error) {
      done?.(error as Error);
      return;
    }
    done?.();
  }

  flushSync(): void {
    this.#drain();
    this.#sink.flushSync();
  }

  readonly #endOfTurn = () => {
    this.#scheduled = false;
    this.#drain();
  };

  #drain(): void {
    if (this.#pending === "") return;
    const chunk = this.#pending;
    this.#pending = "";
    this.#sink.write(chunk);
  }
}
