import 'reflect-metadata';
import { ConfigError, StartupError, loadGatewayConfig } from '#config';
import { createGatewayApp } from './create-gateway-app.js';

async function main(): Promise<void> {
  const config = loadGatewayConfig();
  const app = await createGatewayApp(config);
  await app.listen(config.port, config.host);
  console.log(`gateway listening on http://${config.host}:${config.port}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error instanceof StartupError ? error.message : error);
  process.exit(1);
});
