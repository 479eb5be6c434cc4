import { isIPv6 } from "node:net";
import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [Address, number];

const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR("64:ff9b::/96");

/**
 * IPv6 ranges that carry an IPv4 address (by ipaddr.js range name), with where it sits: such an
 * address reaches, or claims to reach, that IPv4 address, so it is judged by it.
 */
const EMBEDDED_IPV4: Readonly<Record<string, (ip: ipaddr.IPv6) => ipaddr.IPv4[]>> = {
  // ::ffff:0:a.b.c.d (RFC 6145): the last 32 bits.
  rfc6145: (ip) => [lastIpv4(ip)],
  // NAT64 (RFC 6052): the well-known prefix 64:ff9b::/96 ends in the IPv4 address. The local-use
  // prefix 64:ff9b:1::/48 (RFC 8215) may put it anywhere and is never public: nothing to judge by.
  rfc6052: (ip) => (ip.match(NAT64_WELL_KNOWN) ? [lastIpv4(ip)] : []),
  // 6to4 (RFC 3056): 2002:AABB:CCDD::/48 carries AA.BB.CC.DD.
  "6to4": (ip) => [ipv4Of(ip.parts[1] ?? 0, ip.parts[2] ?? 0)],
  // Teredo (RFC 4380): the server's address in bits 32-63, the client's inverted in the last 32.
  teredo: (ip) => [ipv4Of(ip.parts[2] ?? 0, ip.parts[3] ?? 0), ipv4Of(~(ip.parts[6] ?? 0), ~(ip.parts[7] ?? 0))],
};

/** Special-purpose IPv6 ranges (IANA registry) that ipaddr.js classifies as plain unicast. */
const UNNAMED_IPV6: readonly [Cidr, string][] = [
  [ipaddr.IPv6.parseCIDR("::/96"), "an IPv4-compatible address (deprecated by RFC 4291)"],
  [ipaddr.IPv6.parseCIDR("100:0:0:1::/64"), "in the dummy prefix (RFC 9780)"],
];
/** Only 2000::/3 is allocated as global unicast; anything else ipaddr.js has no name for is not public. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR("2000::/3");

function ipv4Of(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([(high >> 8) & 0xff, high & 0xff, (low >> 8) & 0xff, low & 0xff]);
}

function lastIpv4(ip: ipaddr.IPv6): ipaddr.IPv4 {
  return ipv4Of(ip.parts[6] ?? 0, ip.parts[7] ?? 0);
}

/**
 * IPv6 text in the WHATWG URL parser's form (hexadecimal, compressed): ipaddr.js reads a dotted tail
 * after "::" as IPv4-mapped (::127.0.0.1 becomes ::ffff:7f00:1), the URL parser reads it as written.
 */
function canonical(address: string): string {
  return isIPv6(address) ? new URL(`https://[${address}]/`).hostname.slice(1, -1) : address;
}

function refuseIpv4(ip: ipaddr.IPv4): string | undefined {
  const kind = ip.range();
  return kind === "unicast" ? undefined : `a ${kind} address`;
}

function refuseIpv6(ip: ipaddr.IPv6): string | undefined {
  const kind = ip.range();
  const embedded = EMBEDDED_IPV4[kind];
  if (embedded) {
    const carried = embedded(ip);
    if (carried.length === 0) return `a ${kind} address with no public IPv4 address in it`;
    for (const ipv4 of carried) {
      const refusal = refuseIpv4(ipv4);
      if (refusal) return `a ${kind} address carrying ${ipv4.toString()}, ${refusal}`;
    }
    return undefined;
  }
  if (kind !== "unicast") return `a ${kind} address`;
  const unnamed = UNNAMED_IPV6.find(([cidr]) => ip.match(cidr));
  if (unnamed) return unnamed[1];
  return ip.match(GLOBAL_UNICAST) ? undefined : "outside the global unicast space 2000::/3";
}

/**
 * Which addresses the hub may connect to: public unicast only, judged by range tables (ipaddr.js's
 * special-purpose ranges, the IANA ones it does not name, and the IPv4 address inside IPv4-mapped,
 * NAT64, 6to4 and Teredo addresses), unless a CIDR is explicitly allowed by configuration (tests
 * allow loopback; production allows nothing extra).
 */
export class AddressPolicy {
  readonly #allowed: Cidr[];

  constructor(allowedCidrs: readonly string[]) {
    this.#allowed = allowedCidrs.map((cidr) => ipaddr.parseCIDR(cidr));
  }

  /** Undefined if the address may be contacted, otherwise why not. */
  refuse(address: string): string | undefined {
    if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
    let ip = ipaddr.parse(canonical(address));
    // ::ffff:127.0.0.1 is 127.0.0.1 on a dual-stack socket: judge IPv4-mapped addresses as IPv4.
    if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
    for (const [range, bits] of this.#allowed) {
      if (range.kind() === ip.kind() && ip.match(range, bits)) return undefined;
    }
    const refusal = ip.kind() === "ipv4" ? refuseIpv4(ip as ipaddr.IPv4) : refuseIpv6(ip as ipaddr.IPv6);
    return refusal === undefined ? undefined : `${address} is ${refusal}`;
  }
}
