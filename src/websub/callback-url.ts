/**
 * Appends hub parameters to a callback URL without re-encoding its own query (WebSub §5.1.1):
 * URLSearchParams would rewrite `a/b` as `a%2Fb` and `%20` as `+` in what is already there.
 */
export function withHubParams(callback: string, params: Record<string, string>): string {
  const extra = new URLSearchParams(params).toString();
  if (!callback.includes("?")) return `${callback}?${extra}`;
  return callback.endsWith("?") || callback.endsWith("&") ? `${callback}${extra}` : `${callback}&${extra}`;
}
