import ipaddr from "ipaddr.js";

/**
 * Which addresses the hub may connect to: public unicast only, unless a CIDR is explicitly allowed
 * by configuration (tests allow loopback; production allows nothing extra).
 */
export class AddressPolicy {
  readonly #allowed: [ipaddr.IPv4 | ipaddr.IPv6, number][];

  constructor(allowedCidrs: readonly string[]) {
    this.#allowed = allowedCidrs.map((cidr) => ipaddr.parseCIDR(cidr));
  }

  /** Undefined if the address may be contacted, otherwise why not. */
  refuse(address: string): string | undefined {
    if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
    let ip = ipaddr.parse(address);
    // ::ffff:127.0.0.1 is 127.0.0.1: judge IPv4-mapped addresses as IPv4.
    if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
    for (const [range, bits] of this.#allowed) {
      if (range.kind() === ip.kind() && ip.match(range, bits)) return undefined;
    }
    const kind = ip.range();
    return kind === "unicast" ? undefined : `${address} is a ${kind} address`;
  }
}
