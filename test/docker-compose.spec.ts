import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { loadAiConfig, loadGatewayConfig } from '#config';

const COMPOSE_FILE = join(process.cwd(), 'docker/compose.yaml');

/** `docker compose` (plugin) or `docker-compose` (standalone), whichever this machine has. */
function composeCommand(): string[] | undefined {
  const candidates = [['docker', 'compose'], ['docker-compose']];
  return candidates.find(([command, ...args]) => spawnSync(command, [...args, 'version'], { stdio: 'ignore' }).status === 0);
}

interface ComposeService {
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: unknown;
  image?: string;
  deploy?: { replicas?: number };
}

const compose = composeCommand();

/** The compose file as Docker reads it, checked against the code that reads the same settings. */
(compose ? describe : describe.skip)(`docker/compose.yaml (${compose?.join(' ') ?? 'no compose tool here: skipped'})`, () => {
  let services: Record<string, ComposeService>;

  beforeAll(() => {
    const [command, ...args] = compose!;
    const rendered = execFileSync(command, [...args, '-f', COMPOSE_FILE, 'config'], {
      env: { ...process.env, AI_SERVICE_TOKEN: 'a-service-token-for-the-check', AUTH_JWT_SECRET: 'x'.repeat(32) },
      encoding: 'utf8',
    });
    services = (yaml.load(rendered) as { services: Record<string, ComposeService> }).services;
  });

  it('should define the production services, each long-running one with a healthcheck', () => {
    expect(Object.keys(services).sort()).toEqual(['ai-api', 'ai-worker', 'gateway', 'migrate', 'postgres', 'redis']);
    for (const name of ['ai-api', 'ai-worker', 'gateway', 'postgres', 'redis']) expect(services[name].healthcheck).toBeDefined();
    expect(services.postgres.image).toMatch(/^pgvector\/pgvector:.*pg17$/);
    expect(services.redis.image).toMatch(/^redis:7/);
    expect(services['ai-api'].environment).toMatchObject({ AI_ROLE: 'api' });
    expect(services['ai-worker'].environment).toMatchObject({ AI_ROLE: 'worker' });
    expect(services['ai-worker'].deploy?.replicas).toBeGreaterThan(1);
  });

  it('should give every app service settings its config accepts, and only settings the code reads', () => {
    const read = new Set<string>();
    const set = new Set<string>();
    const recording = (environment: Record<string, string>) => new Proxy(environment, { get: (target, key: string) => (read.add(key), target[key]) });
    for (const [name, service] of Object.entries(services)) {
      const entry = service.command?.join(' ') ?? '';
      const environment = service.environment ?? {};
      const loaders = entry.includes('apps/ai/')
        ? [loadAiConfig]
        : entry.includes('apps/gateway/')
          ? [loadGatewayConfig]
          : name === 'migrate'
            ? [loadAiConfig, loadGatewayConfig]
            : [];
      for (const load of loaders) expect(() => load(recording(environment))).not.toThrow();
      if (loaders.length > 0) Object.keys(environment).forEach((key) => set.add(key));
    }
    // A misspelt or renamed variable would be set here and silently ignored by the apps.
    expect([...set].filter((key) => !read.has(key))).toEqual([]);
  });

  it('should run the image as a non-root user', () => {
    const dockerfile = readFileSync(join(process.cwd(), 'docker/Dockerfile'), 'utf8');
    const users = [...dockerfile.matchAll(/^USER\s+(\S+)/gm)].map((match) => match[1]);
    expect(users.at(-1)).toBeDefined();
    expect(users.at(-1)).not.toMatch(/^(root|0)$/);
  });
});
