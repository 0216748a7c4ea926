import ipaddr from 'ipaddr.js';

/** Which addresses a request may connect to. */
export interface AddressGuard {
  allows(address: string): boolean;
  /** How a refused address is described to whoever gave the URL. */
  readonly description: string;
}

type Ip = ipaddr.IPv4 | ipaddr.IPv6;

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** IPv6 prefixes that carry an IPv4 address a gateway would connect to (6to4, the well-known NAT64 prefix). */
const CARRIES_V4: { prefix: [ipaddr.IPv6, number]; v4At: number }[] = [
  { prefix: ipaddr.IPv6.parseCIDR('2002::/16'), v4At: 2 },
  { prefix: ipaddr.IPv6.parseCIDR('64:ff9b::/96'), v4At: 12 },
];

/**
 * Whether an address is on the public internet. IPv4: unicast outside every special range ipaddr.js names. IPv6: global
 * unicast (2000::/3) outside every special-purpose range (IANA's registry: documentation, ORCHID, the 2001::/23
 * protocol assignments…); everything outside 2000::/3 is reserved, IPv4-compatible `::a.b.c.d` and local-use NAT64
 * (64:ff9b:1::/48) included. 6to4 and well-known NAT64 count as the IPv4 address they carry.
 */
function isPublic(ip: Ip): boolean {
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const v6 = ip as ipaddr.IPv6;
  for (const { prefix, v4At } of CARRIES_V4)
    if (v6.match(prefix)) {
      const bytes = v6.toByteArray().slice(v4At, v4At + 4);
      return isPublic(ipaddr.fromByteArray(bytes));
    }
  return v6.match(GLOBAL_UNICAST_V6) && v6.range() === 'unicast';
}

/**
 * An address as the bytes it connects to; IPv4-mapped as IPv4. An IPv6 address written with a dotted tail goes through
 * the URL parser first: ipaddr.js reads `::a.b.c.d` (IPv4-compatible, ::/96) as if it were `::ffff:a.b.c.d`.
 */
function parseAddress(address: string): Ip | undefined {
  let text = address;
  if (address.includes(':') && address.includes('.')) {
    try {
      text = new URL(`http://[${address}]/`).hostname.slice(1, -1);
    } catch {
      return undefined;
    }
  }
  return ipaddr.isValid(text) ? ipaddr.process(text) : undefined;
}

/** Public unicast addresses plus the given ranges: a host's URL must not make the service read its own network. */
export function publicAddressesOnly(allowed: readonly string[] = []): AddressGuard {
  const ranges = allowed.map((cidr) => ipaddr.parseCIDR(cidr));
  return {
    description: 'a private, loopback, link-local or reserved network',
    allows(address) {
      const ip = parseAddress(address);
      if (!ip) return false;
      if (ranges.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits))) return true;
      return isPublic(ip);
    },
  };
}
