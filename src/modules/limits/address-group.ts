import ipaddr from 'ipaddr.js';

/**
 * What a limit per address counts: an IPv4 address (an IPv4-mapped IPv6 one too), or the /64
 * network of an IPv6 address. One subscriber is handed at least a /64, so counting single IPv6
 * addresses would give whoever holds one 2^64 budgets. Anything else (no address) counts as itself.
 */
export function addressGroup(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const network = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${network.join(':')}::/64`;
}
