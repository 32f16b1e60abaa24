import { BlockList, isIP } from 'node:net';

// BlockList also matches IPv4-mapped IPv6 forms (::ffff:127.0.0.1), as a dual-stack socket reports them.
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Whether a socket's remote address is this machine (127.0.0.0/8, ::1, or those IPv4 addresses mapped into IPv6). */
export function isLoopbackAddress(address: string | undefined): boolean {
  const family = isIP(address ?? '');
  return family !== 0 && LOOPBACK.check(address!, family === 4 ? 'ipv4' : 'ipv6');
}
