import type { LookupAddress } from 'node:dns';
import type { Agent } from 'node:http';
import type { Socket, TcpNetConnectOpts } from 'node:net';
import { guardAgent, httpUrl, isAllowedHost } from './spec-fetcher.js';

type Connecting = Agent & { createConnection(options: TcpNetConnectOpts, callback: (error: Error | null) => void): Socket };

/** The guard's decision on connecting to `address`: the error it refuses with. Refused addresses are never connected to. */
function refusal(agent: Agent | undefined, options: TcpNetConnectOpts): Promise<Error> {
  return new Promise((resolve) => {
    const socket = (agent as Connecting).createConnection(options, (error) => error && resolve(error));
    socket.on('error', resolve);
  });
}

/** A DNS answer without DNS: the name resolves to `address`. */
const resolvesTo = (address: string, family: 4 | 6) =>
  ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
    options.all ? callback(null, [{ address, family } satisfies LookupAddress]) : callback(null, address, family)) as unknown as TcpNetConnectOpts['lookup'];

describe('SpecFetcher guard', () => {
  it.each(['10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '127.0.0.1', '0.0.0.0', 'fd00::1', 'fe80::1', '::1', '::'])(
    'should refuse a connection to %s by its address',
    async (address) => {
      const agent = guardAgent(httpUrl(`http://${address.includes(':') ? `[${address}]` : address}/spec.json`), []);
      await expect(refusal(agent, { host: address, port: 80 })).resolves.toThrow(/is not allowed/);
    },
  );

  it.each([
    ['10.0.0.1', 4],
    ['169.254.169.254', 4],
    ['fd00::1', 6],
  ] as const)('should refuse a name that resolves to %s (the address connected to, not the name)', async (address, family) => {
    const agent = guardAgent(httpUrl('http://specs.example.test/spec.json'), []);
    await expect(refusal(agent, { host: 'specs.example.test', port: 80, lookup: resolvesTo(address, family) })).resolves.toThrow(/is not allowed/);
  });

  it("should let only a listed host:port through without the guard, the port the scheme's own when absent", () => {
    const allowed = ['specs.internal:8080', '10.0.0.1:443', '[fd00::1]:80'];
    expect(isAllowedHost(httpUrl('http://specs.internal:8080/a'), allowed)).toBe(true);
    expect(isAllowedHost(httpUrl('http://SPECS.internal:8080/a'), allowed)).toBe(true);
    expect(isAllowedHost(httpUrl('http://specs.internal:8081/a'), allowed)).toBe(false);
    expect(isAllowedHost(httpUrl('https://10.0.0.1/a'), allowed)).toBe(true);
    expect(isAllowedHost(httpUrl('http://10.0.0.1/a'), allowed)).toBe(false);
    expect(isAllowedHost(httpUrl('http://[fd00::1]/a'), allowed)).toBe(true);
    expect(guardAgent(httpUrl('http://specs.internal:8080/a'), allowed)).toBeUndefined();
    expect(guardAgent(httpUrl('http://specs.internal:8081/a'), allowed)).toBeDefined();
  });

  it('should read other spellings of an address as the address, and refuse schemes other than http and https', () => {
    expect(httpUrl('http://2130706433:81/').host).toBe('127.0.0.1:81');
    expect(httpUrl('http://0x7f000001/').hostname).toBe('127.0.0.1');
    expect(httpUrl('http://0251.0376.0251.0376/').hostname).toBe('169.254.169.254');
    expect(() => httpUrl('file:///etc/passwd')).toThrow('url must be an http or https URL');
    expect(() => httpUrl('gopher://example.com/')).toThrow('url must be an http or https URL');
    expect(() => httpUrl('http://user:secret@example.com/')).toThrow('url must not hold credentials');
  });
});
