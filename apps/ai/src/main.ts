import 'reflect-metadata';
import { ConfigError, StartupError, loadAiConfig } from '#config';
import { createAiApp } from './create-ai-app.js';

async function main(): Promise<void> {
  const config = loadAiConfig();
  const app = await createAiApp(config);
  await app.listen(config.port, config.host);
  console.log(`ai listening on http://${config.host}:${config.port}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error instanceof StartupError ? error.message : error);
  process.exit(1);
});
