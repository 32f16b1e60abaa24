import 'reflect-metadata';
import { assertPortFree, ConfigError, listenError, StartupError, loadGatewayConfig } from '#config';
import { createGatewayApp } from './create-gateway-app.js';

async function main(): Promise<void> {
  const config = loadGatewayConfig();
  // Checked before the app spends seconds starting; and again by listening, should another process take it meanwhile.
  await assertPortFree('GATEWAY_PORT', config.port, config.host);
  const app = await createGatewayApp(config);
  await app.listen(config.port, config.host).catch((error: unknown) => {
    throw listenError(error, 'GATEWAY_PORT', config.port);
  });
  console.log(`gateway listening on http://${config.host}:${config.port}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error instanceof StartupError ? error.message : error);
  process.exit(1);
});
