import 'reflect-metadata';
import { assertPortFree, ConfigError, listenError, StartupError, loadAiConfig } from '#config';
import { createAiApp } from './create-ai-app.js';

async function main(): Promise<void> {
  const config = loadAiConfig();
  // Checked before the app spends seconds starting; and again by listening, should another process take it meanwhile.
  await assertPortFree('AI_PORT', config.port, config.host);
  const app = await createAiApp(config);
  await app.listen(config.port, config.host).catch((error: unknown) => {
    throw listenError(error, 'AI_PORT', config.port);
  });
  console.log(`ai listening on http://${config.host}:${config.port}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error instanceof StartupError ? error.message : error);
  process.exit(1);
});
