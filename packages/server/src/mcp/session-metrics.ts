import { LRUCache } from "lru-cache";
import type { Metrics } from "../metrics/metrics.ts";
import type { SessionTokens } from "./session-tokens.ts";

export interface SessionEvents {
  opened(id: string): void;
  terminated(id: string): void;
}

/**
 * Counts MCP sessions for /metrics. Sessions are stateless signed ids, so "active" can only mean the
 * sessions this process opened that were neither terminated here nor expired; the set is bounded.
 */
export function sessionMetrics(metrics: Metrics, tokens: SessionTokens): SessionEvents {
  const active = new LRUCache<string, true>({ max: 100_000, ttlAutopurge: false });
  metrics.trackActiveMcpSessions(() => {
    active.purgeStale();
    return active.size;
  });
  return {
    opened(id) {
      metrics.mcpSessionOpened();
      active.set(id, true, { ttl: Math.max(1, tokens.expiresAt(id) - Date.now()) });
    },
    terminated(id) {
      metrics.mcpSessionTerminated();
      active.delete(id);
    },
  };
}
