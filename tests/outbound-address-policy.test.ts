/**
 * The hub's SSRF address policy (issue 20 finding 7): public unicast only, by range tables, with
 * IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo) judged
 * by that address or refused outright. Property tests over random addresses of every range.
 */

import { AddressPolicy } from "@riverbend/server/websub-hub/outbound/address-policy.ts";
import fc from "fast-check";
import ipaddr from "ipaddr.js";
import { describe, expect, it } from "vitest";
import { runs } from "./support/properties-arbitraries.ts";

const strict = new AddressPolicy([]);

/** Every IPv4 special-purpose block of the IANA registry (2025), none of them public unicast. */
const IPV4_SPECIAL = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.31.196.0/24",
  "192.52.193.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "192.175.48.0/24",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
  "255.255.255.255/32",
].map((cidr) => ipaddr.IPv4.parseCIDR(cidr));

const octets = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
const isSpecial = (ip: ipaddr.IPv4) => IPV4_SPECIAL.some((cidr) => ip.match(cidr));
/** A random address inside one of the special-purpose IPv4 blocks. */
const specialIpv4 = fc.tuple(fc.nat(IPV4_SPECIAL.length - 1), fc.integer({ min: 0, max: 0xffffffff })).map(([i, r]) => {
  const [base, bits] = IPV4_SPECIAL[i] as [ipaddr.IPv4, number];
  const start = base.toByteArray().reduce((n, b) => n * 256 + b, 0);
  const size = 2 ** (32 - bits);
  const n = start + (r % size);
  return new ipaddr.IPv4([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
});
const publicIpv4 = octets.map((o) => new ipaddr.IPv4(o)).filter((ip) => !isSpecial(ip));

const hex = (ip: ipaddr.IPv4) => {
  const [a = 0, b = 0, c = 0, d = 0] = ip.octets;
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
};
const inverted = (ip: ipaddr.IPv4) => new ipaddr.IPv4(ip.octets.map((o) => 255 - o));

/** The IPv6 forms that carry an IPv4 address. */
const carriers = {
  mapped: (ip: ipaddr.IPv4) => `::ffff:${ip.toString()}`,
  translated: (ip: ipaddr.IPv4) => `::ffff:0:${hex(ip).join(":")}`,
  nat64: (ip: ipaddr.IPv4) => `64:ff9b::${hex(ip).join(":")}`,
  sixToFour: (ip: ipaddr.IPv4) => `2002:${hex(ip).join(":")}::1`,
  teredoClient: (ip: ipaddr.IPv4) => `2001:0:4136:e378:8000:63bf:${hex(inverted(ip)).join(":")}`,
  teredoServer: (ip: ipaddr.IPv4) => `2001:0:${hex(ip).join(":")}:8000:63bf:f7f7:f7f7`,
};

describe("the hub's address policy", () => {
  it.each([
    ["::127.0.0.1", "IPv4-compatible"],
    ["::7f00:1", "IPv4-compatible"],
    ["::8.8.8.8", "IPv4-compatible"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["64:ff9b::127.0.0.1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "linkLocal"],
    ["64:ff9b:1::8.8.8.8", "rfc6052"],
    ["2002:7f00:1::", "loopback"],
    ["2002:a00:1::1", "private"],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback"],
    ["2001:0:a00:1:8000:63bf:3fff:fdd2", "private"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fe80::1", "linkLocal"],
    ["fd00::1", "uniqueLocal"],
    ["fec0::1", "deprecatedSiteLocal"],
    ["ff02::1", "multicast"],
    ["100::1", "discard"],
    ["100:0:0:1::1", "dummy prefix"],
    ["2001:db8::1", "reserved"],
    ["3fff::1", "reserved"],
    ["2001:2::1", "benchmarking"],
    ["2001:20::1", "orchid2"],
    ["5f00::1", "segmentRouting"],
    ["4000::1", "global unicast space"],
    ["169.254.169.254", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["192.0.0.170", "reserved"],
    ["255.255.255.255", "broadcast"],
  ])("refuses %s (%s)", (address, why) => {
    expect(strict.refuse(address)).toContain(why);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
  ])("allows the public address %s", (address) => {
    expect(strict.refuse(address)).toBeUndefined();
  });

  it("refuses every address of every special-purpose IPv4 block, and every IPv6 form carrying one", () => {
    fc.assert(
      fc.property(specialIpv4, (ip) => {
        expect(strict.refuse(ip.toString())).toBeDefined();
        for (const carry of Object.values(carriers)) expect(strict.refuse(carry(ip)), carry(ip)).toBeDefined();
        expect(strict.refuse(`::${ip.toString()}`)).toBeDefined();
      }),
      runs(2000),
    );
  });

  it("allows public IPv4 addresses and their NAT64, 6to4, Teredo and mapped forms, but never IPv4-compatible", () => {
    fc.assert(
      fc.property(publicIpv4, (ip) => {
        expect(strict.refuse(ip.toString())).toBeUndefined();
        for (const carry of Object.values(carriers)) expect(strict.refuse(carry(ip)), carry(ip)).toBeUndefined();
        expect(strict.refuse(`::${ip.toString()}`)).toContain("IPv4-compatible");
      }),
      runs(2000),
    );
  });

  it("refuses every IPv6 address outside 2000::/3", () => {
    const parts = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 });
    fc.assert(
      fc.property(parts, (words) => {
        const ip = new ipaddr.IPv6(words);
        fc.pre(!ip.match(ipaddr.IPv6.parseCIDR("2000::/3")) && !ip.isIPv4MappedAddress());
        expect(strict.refuse(ip.toString())).toBeDefined();
      }),
      runs(2000),
    );
  });

  it("lets configured CIDRs through (tests allow loopback), and only those", () => {
    const loopback = new AddressPolicy(["127.0.0.0/8", "::1/128"]);
    expect(loopback.refuse("127.0.0.1")).toBeUndefined();
    expect(loopback.refuse("::ffff:127.0.0.1")).toBeUndefined();
    expect(loopback.refuse("::1")).toBeUndefined();
    for (const address of ["::127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::", "10.0.0.1"]) {
      expect(loopback.refuse(address), address).toBeDefined();
    }
  });
});
