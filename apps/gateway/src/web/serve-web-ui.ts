import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';

/** The repository (or image) root: the nearest folder above this file with a package.json. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the gateway');
    dir = parent;
  }
  return dir;
}

/**
 * The web UI at `/`: static pages (`dist/web`) and its compiled scripts (`dist/web-js`, from
 * `apps/web`), built by `npm run build`. It talks to the same public API as everyone else.
 */
export function serveWebUi(app: NestExpressApplication): void {
  const root = packageRoot();
  const pages = join(root, 'dist/web');
  if (!existsSync(join(pages, 'index.html'))) {
    new Logger('WebUi').warn('The web UI is not built (npm run build): / serves nothing');
    return;
  }
  app.useStaticAssets(join(root, 'dist/web-js'), { prefix: '/js/', maxAge: '5m' });
  app.useStaticAssets(pages, { index: 'index.html', maxAge: '5m' });
}
