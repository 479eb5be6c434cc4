import type { Logger } from "pino";

/**
 * The access-log line of a request answered before Express: lighter than pino-http's (no headers),
 * with the same id, method, URL, status and time, and the same message.
 */
export function logAnswered(
  logger: Logger,
  answered: { id: string; method: string; url: string; statusCode: number; ms: number },
): void {
  const { id, method, url, statusCode, ms } = answered;
  logger.info({ req: { id, method, url }, res: { statusCode }, responseTime: ms }, "request completed");
}
