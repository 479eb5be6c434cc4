import { setTimeout as delay } from "node:timers/promises";
import type { Logger } from "pino";
import type { TopicContent } from "./content.ts";
import { type DeliveryOutcome, deliver, type RetryPolicy } from "./distributor.ts";
import type { GuardedClient } from "./outbound/guarded-client.ts";
import type { ClaimedDelivery, HubStore } from "./store/hub-store.ts";

export type { DeliveryOutcome };

export interface DeliveryLoopDeps {
  store: HubStore;
  client: GuardedClient;
  retry: RetryPolicy;
  hubUrl: string;
  logger: Logger;
  now(): number;
  claimMs: number;
  maxRunning: number;
  content(topic: string): TopicContent | undefined;
  /** Topic to content hash this replica serves: it claims only deliveries of that content. */
  serving(): ReadonlyMap<string, string>;
  track<T>(work: Promise<T>): Promise<T>;
  onOutcome(outcome: DeliveryOutcome): void;
}

/** How far ahead a due retry is waited for in the loop; later ones are left to the hub's sweep. */
const LOOKAHEAD_MS = 1000;

/**
 * Works off owed deliveries: claims as many as may run (the store hands each to one replica), starts
 * each at once so one slow subscriber holds back no one, and claims more as they finish or when
 * woken (a change here, a notification from another replica, the sweep). When the store is
 * unreachable it stops; the next sweep or wake-up starts it again.
 */
export class DeliveryLoop {
  readonly #deps: DeliveryLoopDeps;
  #running = false;
  #stopping = false;
  #wake: (() => void) | undefined;
  #again = false;

  constructor(deps: DeliveryLoopDeps) {
    this.#deps = deps;
  }

  kick(): void {
    if (this.#stopping) return;
    if (this.#running) {
      this.#again = true;
      this.#wake?.();
      return;
    }
    this.#running = true;
    void this.#deps
      .track(this.#drain())
      .catch((error) => this.#deps.logger.warn({ err: error }, "websub deliveries paused: the store failed"))
      .finally(() => {
        this.#running = false;
      });
  }

  stop(): void {
    this.#stopping = true;
    this.#wake?.();
  }

  /** Starts one claimed delivery; its slot frees once the request is over (recording may still run). */
  #start(delivery: ClaimedDelivery, running: Set<Promise<void>>, settling: Set<Promise<void>>): void {
    let free: () => void = () => undefined;
    const slot = new Promise<void>((resolve) => {
      free = resolve;
    });
    running.add(slot);
    void slot.then(() => running.delete(slot));
    const whole = this.#deps
      .track(deliver(this.#deps, delivery, free))
      .then(this.#deps.onOutcome, (error) => this.#deps.logger.warn({ err: error }, "websub delivery not recorded"))
      .finally(free);
    settling.add(whole);
    void whole.finally(() => settling.delete(whole));
  }

  async #drain(): Promise<void> {
    const { store, now, claimMs, maxRunning } = this.#deps;
    const running = new Set<Promise<void>>();
    // Claimed ahead of the free slots (up to one more round), so a slot that frees starts the next
    // delivery without a database round trip (bench:hub's 50 ms subscribers left slots idle waiting
    // for claims). A claim waits here at most one request's timeout, well within its lease; what is
    // left when stopping lapses with its lease.
    const queue: ClaimedDelivery[] = [];
    // Deliveries whose request is over but whose outcome is still being recorded (a retry it owes
    // becomes visible only then).
    const settling = new Set<Promise<void>>();
    try {
      for (;;) {
        const woken = this.#again;
        this.#again = false;
        // One reading of the clock per round: what was not claimable at `at` is waited for from `at`.
        const at = now();
        // Stopping: deliveries under way finish, none starts (what is owed stays in the store).
        while (!this.#stopping && running.size < maxRunning && queue.length > 0) {
          this.#start(queue.shift() as ClaimedDelivery, running, settling);
        }
        const room = this.#stopping ? 0 : 2 * maxRunning - running.size - queue.length;
        // Claims in batches (half a round at least), not one per finished delivery: with several
        // replicas each claim costs the database a scan, and they would otherwise poll it constantly.
        const idle = running.size === 0 && queue.length === 0;
        if (room > 0 && (idle || (queue.length < maxRunning && room >= maxRunning / 2) || woken)) {
          const claimed = await store.claimDeliveries({
            now: at,
            claimUntil: at + claimMs,
            limit: room,
            serving: this.#deps.serving(),
          });
          queue.push(...claimed);
          if (claimed.length > 0) continue;
        }
        if (this.#again) continue;
        if (this.#stopping && running.size === 0) {
          await Promise.allSettled(settling);
          return;
        }
        const wake = new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
        const waits: Promise<unknown>[] = [wake, ...running];
        if (running.size === 0 && queue.length === 0) {
          if (settling.size > 0) waits.push(...settling);
          else {
            if (this.#stopping) return;
            const next = await store.nextDueAt(at);
            if (next === undefined || next - now() > LOOKAHEAD_MS) return;
            waits.push(delay(Math.max(0, next - now()), undefined, { ref: false }));
          }
        }
        await Promise.race(waits);
        this.#wake = undefined;
      }
    } finally {
      await Promise.allSettled([...running, ...settling]);
    }
  }
}
