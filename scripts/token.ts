import { parseArgs } from 'node:util';
import { ConfigError, loadGatewayConfig } from '#config';
import { devSigningSecret, signDevToken } from '../apps/gateway/src/auth/dev-token.js';

const USAGE = `Usage: npm run token -- --org <orgId>[,<orgId>…] [--roles reader,publisher,admin] [--sub <subject>] [--ttl <seconds>]`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      org: { type: 'string', multiple: true },
      roles: { type: 'string', default: 'reader,publisher,admin' },
      sub: { type: 'string', default: 'dev-user' },
      ttl: { type: 'string', default: String(12 * 3600) },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.org?.length) {
    console.error(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const ttlSeconds = Number(values.ttl);
  if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0) throw new ConfigError(`--ttl must be a positive number of seconds`);
  const token = await signDevToken(devSigningSecret(loadGatewayConfig()), {
    sub: values.sub,
    orgs: values.org.flatMap((org) => org.split(',')).map((org) => org.trim()).filter(Boolean),
    roles: values.roles.split(',').map((role) => role.trim()).filter(Boolean),
    ttlSeconds,
  });
  console.log(token);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : String(error));
  process.exit(1);
});
