import { parseArgs } from 'node:util';
import { ConfigError, loadGatewayConfig } from '#config';
import { ROLES } from '#contracts';
import { devSigningSecret, signDevToken } from '../../gateway/src/auth/dev-token.js';

const USAGE = `Usage: npm run token -- --org <orgId>[,<orgId>…] [--roles reader,publisher,admin] [--sub <subject>] [--client <clientId>] [--team <team>]… [--ttl <seconds>]`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      org: { type: 'string', multiple: true },
      roles: { type: 'string', default: 'reader,publisher,admin' },
      sub: { type: 'string', default: 'dev-user' },
      // An application's token: its MCP reads record it as an observed consumer.
      client: { type: 'string' },
      team: { type: 'string', multiple: true },
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
  const roles = values.roles
    .split(',')
    .map((role) => role.trim())
    .filter(Boolean);
  // The gateway refuses a token with any other role: don't print one it would refuse.
  const unknown = roles.filter((role) => !(ROLES as readonly string[]).includes(role));
  if (unknown.length > 0) throw new ConfigError(`--roles may hold only ${ROLES.join(', ')} (not ${unknown.join(', ')})`);
  const token = await signDevToken(devSigningSecret(loadGatewayConfig()), {
    sub: values.sub,
    orgs: values.org
      .flatMap((org) => org.split(','))
      .map((org) => org.trim())
      .filter(Boolean),
    roles,
    ttlSeconds,
    client: values.client,
    teams: values.team,
  });
  console.log(token);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : String(error));
  process.exit(1);
});
