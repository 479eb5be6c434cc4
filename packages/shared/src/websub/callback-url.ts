import ipaddr from "ipaddr.js";

/**
 * Appends hub parameters to a callback URL without re-encoding its own query (WebSub §5.1.1):
 * URLSearchParams would rewrite `a/b` as `a%2Fb` and `%20` as `+` in what is already there.
 */
export function withHubParams(callback: string, params: Record<string, string>): string {
  const extra = new URLSearchParams(params).toString();
  if (!callback.includes("?")) return `${callback}?${extra}`;
  return callback.endsWith("?") || callback.endsWith("&") ? `${callback}${extra}` : `${callback}&${extra}`;
}

/**
 * What the per-callback-host limits and caps count by: the host without its port (one host on 35
 * ports is one host), as the URL parser normalises it (lower case, IPv4 numbers dotted, IPv6
 * compressed), with IPv4-mapped IPv6 as its IPv4 address and without a trailing dot.
 */
export function callbackHost(callback: string): string {
  const { hostname } = new URL(callback);
  if (hostname.startsWith("[")) {
    const ip = ipaddr.IPv6.parse(hostname.slice(1, -1));
    return ip.isIPv4MappedAddress() ? ip.toIPv4Address().toString() : hostname;
  }
  return hostname.replace(/\.$/, "");
}
