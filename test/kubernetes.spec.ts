import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import yaml from 'js-yaml';
import ts from 'typescript';
import { loadAiConfig, loadGatewayConfig } from '#config';
import { AI_ROUTES, type AnyRoute, GATEWAY_ROUTES } from '#contracts';

const ROOT = process.cwd();
const KUSTOMIZE_DIR = join(ROOT, 'deploy/kubernetes');
const SECRET_EXAMPLE = join(KUSTOMIZE_DIR, 'secret.example.yaml');

/** Settings that are secrets: in Kubernetes they come from the Secret, never from a ConfigMap or a literal. */
const SECRET_VARS = new Set(['DATABASE_URL', 'AI_SERVICE_TOKEN', 'AUTH_JWT_SECRET', 'OPENAI_API_KEY']);
/** Compose services the manifests leave to the cluster's operator. */
const BROUGHT_ALONG = new Set(['postgres', 'redis']);
/** What the kustomization may use: the render below applies `images` and nothing else. */
const KUSTOMIZATION_KEYS = new Set(['apiVersion', 'kind', 'resources', 'images']);

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean }; configMapKeyRef?: { name: string; key: string } };
}

interface Probe {
  httpGet?: { path: string; port: number | string };
}

interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  readOnlyRootFilesystem?: boolean;
}

interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  securityContext?: SecurityContext;
  volumeMounts?: { name: string; mountPath: string }[];
}

interface PodTemplate {
  metadata?: { labels?: Record<string, string> };
  spec: { containers: Container[]; securityContext?: SecurityContext; volumes?: { name: string; emptyDir?: object }[] };
}

interface Workload extends K8sObject {
  spec: { replicas?: number; selector?: { matchLabels?: Record<string, string> }; template: PodTemplate };
}

interface Service extends K8sObject {
  spec: { selector: Record<string, string>; ports: { port: number; targetPort?: number | string }[] };
}

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

interface MetricSpec {
  type: string;
  external?: { metric: { name: string; selector?: LabelSelector } };
  pods?: { metric: { name: string; selector?: LabelSelector } };
}

interface Autoscaler extends K8sObject {
  spec: { scaleTargetRef: { apiVersion: string; kind: string; name: string }; minReplicas?: number; maxReplicas: number; metrics?: MetricSpec[] };
}

interface DisruptionBudget extends K8sObject {
  spec: { minAvailable?: number | string; maxUnavailable?: number | string; selector: { matchLabels?: Record<string, string> } };
}

interface ComposeService {
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  ports?: string[];
  deploy?: { replicas?: number };
}

/** Where a container's setting comes from. */
type Setting = { value: string } | { secret: string; key: string; optional: boolean };

interface Rendered {
  file: string;
  object: K8sObject;
}

/** `kubectl kustomize`, for the subset kustomization.yaml may use (checked below): its resources with `images` applied. */
function render(): { kustomization: Record<string, unknown>; objects: Rendered[] } {
  const kustomization = yaml.load(readFileSync(join(KUSTOMIZE_DIR, 'kustomization.yaml'), 'utf8')) as Record<string, unknown>;
  const images = (kustomization.images ?? []) as { name: string; newName?: string; newTag?: string }[];
  const objects: Rendered[] = [];
  for (const file of (kustomization.resources ?? []) as string[]) {
    for (const document of yaml.loadAll(readFileSync(join(KUSTOMIZE_DIR, file), 'utf8'))) {
      if (document == null) continue;
      const object = document as K8sObject;
      for (const container of podTemplate(object)?.spec.containers ?? []) {
        const image = images.find((entry) => entry.name === container.image);
        if (image) container.image = `${image.newName ?? image.name}${image.newTag ? `:${image.newTag}` : ''}`;
      }
      objects.push({ file, object });
    }
  }
  return { kustomization, objects };
}

function podTemplate(object: K8sObject): PodTemplate | undefined {
  if (object.kind === 'Deployment' || object.kind === 'Job') return (object as Workload).spec.template;
  return undefined;
}

/** The compose file as `docker compose config` reads it, for what these checks need: anchors merged, `${VAR:-default}` as its default. */
function composeServices(): Record<string, ComposeService> {
  const interpolate = (value: string) =>
    value.replace(/\$\{(\w+)(?::?([-?])([^}]*))?\}/g, (_match, name: string, operator?: string, fallback?: string) =>
      operator === '?' ? `<required ${name}>` : operator === '-' ? (fallback ?? '') : '',
    );
  const compose = yaml.load(readFileSync(join(ROOT, 'docker/compose.yaml'), 'utf8')) as { services: Record<string, ComposeService> };
  for (const service of Object.values(compose.services)) {
    if (service.environment) {
      service.environment = Object.fromEntries(Object.entries(service.environment).map(([key, value]) => [key, interpolate(String(value ?? ''))]));
    }
  }
  return compose.services;
}

/** Every setting libs/config reads (`str(env, 'NAME', …)`, `int(env, …)`…). */
function configVariables(): Set<string> {
  const dir = join(ROOT, 'libs/config/src');
  const names = new Set<string>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts'))) {
    for (const match of readFileSync(join(dir, file), 'utf8').matchAll(/\(env, '([A-Z][A-Z0-9_]*)'/g)) names.add(match[1]);
  }
  return names;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && !file.split(sep).includes('node_modules'))
    .map((file) => join(dir, file));
}

/** The Prometheus gauges the apps export, with their label names. */
function gauges(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of [...sourceFiles(join(ROOT, 'apps')), ...sourceFiles(join(ROOT, 'libs'))]) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/new Gauge\(\{/g)) {
      const body = text.slice(match.index, text.indexOf('registers', match.index));
      const name = /name:\s*'([^']+)'/.exec(body)?.[1];
      const labels = /labelNames:\s*\[([^\]]*)\]/.exec(body)?.[1] ?? '';
      if (name)
        found.set(
          name,
          [...labels.matchAll(/'([^']+)'/g)].map((label) => label[1]),
        );
    }
  }
  return found;
}

/** The paths an app's health controller serves (the routes of its table it mounts), and `/metrics`. */
function healthRoutes(app: 'ai' | 'gateway'): Set<string> {
  const controller = readFileSync(join(ROOT, `apps/${app}/src/health/health.controller.ts`), 'utf8');
  const table: Record<string, AnyRoute> = app === 'ai' ? AI_ROUTES : GATEWAY_ROUTES;
  return new Set(['/metrics', ...[...controller.matchAll(/@Route\((?:AI|GATEWAY)_ROUTES\.(\w+)\)/g)].map((match) => table[match[1]].path)]);
}

/** Paths the AI app answers without the service token: a probe elsewhere would get 401. */
function aiPublicPaths(): Set<string> {
  const guard = readFileSync(join(ROOT, 'apps/ai/src/auth/service-token.guard.ts'), 'utf8');
  const list = /PUBLIC_PATHS = new Set\(\[([^\]]*)\]\)/.exec(guard)?.[1] ?? '';
  return new Set([...list.matchAll(/'([^']+)'/g)].map((match) => match[1]));
}

function appOf(container: Container): 'ai' | 'gateway' | undefined {
  const entry = [...(container.command ?? []), ...(container.args ?? [])].join(' ');
  return entry.includes('apps/ai/') ? 'ai' : entry.includes('apps/gateway/') ? 'gateway' : undefined;
}

/** A resource quantity in bytes, or in cores. */
function quantity(value: string | number): number {
  const match = /^([0-9.]+)(m|Ki|Mi|Gi|Ti|k|M|G)?$/.exec(String(value));
  if (!match) throw new Error(`not a quantity: ${value}`);
  const factors: Record<string, number> = { '': 1, m: 1 / 1000, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, k: 1e3, M: 1e6, G: 1e9 };
  return Number(match[1]) * factors[match[2] ?? ''];
}

function selects(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  return !!selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels?.[key] === value);
}

/** The model class of an object's kind, from kubernetes-models (which ships the API's JSON schemas). */
async function modelFor(apiVersion: string, kind: string): Promise<(new (data: object) => { validate(): void }) | undefined> {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  try {
    const module = (await import(`kubernetes-models/${group ? `${group}/` : ''}${version}/${kind}`)) as Record<string, unknown>;
    return module[kind] as new (data: object) => { validate(): void };
  } catch {
    return undefined;
  }
}

/**
 * Fields the API does not know: kubernetes-models' schemas, like the API's OpenAPI document, allow
 * any other property, while `kubectl apply` (strict field validation) refuses one. Its TypeScript
 * interfaces do not: each object is type-checked as an object literal of its kind's type.
 */
function unknownFields(objects: K8sObject[]): string[] {
  const file = join(ROOT, 'test', '.kubernetes-objects.ts');
  const imports = new Map<string, string>();
  const declarations = objects.map((object, index) => {
    const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
    const type = `T${imports.size}`;
    const specifier = `kubernetes-models/${group ? `${group}/` : ''}${version}/${object.kind}`;
    if (!imports.has(specifier)) imports.set(specifier, type);
    return `export const o${index}: ${imports.get(specifier)} = ${JSON.stringify(object, null, 2)};`;
  });
  const header = [...imports].map(([specifier, type]) => `import type { I${specifier.split('/').at(-1)} as ${type} } from '${specifier}';`);
  const text = [...header, ...declarations].join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, languageVersion, ...rest) =>
    name === file ? ts.createSourceFile(name, text, languageVersion) : getSourceFile.call(host, name, languageVersion, ...rest);
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? text : readFile.call(host, name));
  const program = ts.createProgram([file], options, host);
  const starts = declarations.map((_, index) => text.indexOf(`export const o${index}:`));
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const index = starts.findLastIndex((start) => start <= (diagnostic.start ?? 0));
    const object = objects[index];
    const where = object ? `${object.kind} ${object.metadata?.name}` : relative(ROOT, diagnostic.file?.fileName ?? file);
    return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
  });
}

describe('deploy/kubernetes (the compose stack on Kubernetes)', () => {
  let kustomization: Record<string, unknown>;
  let objects: Rendered[];
  let secretExample: K8sObject & { stringData?: Record<string, string>; data?: Record<string, string> };
  let compose: Record<string, ComposeService>;
  let configMaps: Map<string, Record<string, string>>;

  const all = (kind: string) => objects.filter(({ object }) => object.kind === kind).map(({ object }) => object);
  const workloads = () => [...all('Deployment'), ...all('Job')] as Workload[];
  const workload = (name: string) => workloads().find((object) => object.metadata.name === name);
  const deployment = (name: string) => all('Deployment').find((object) => object.metadata.name === name) as Workload | undefined;
  const containerOf = (object: Workload) => object.spec.template.spec.containers[0];

  /** A container's settings as the kubelet sets them: ConfigMaps first, then `env`. */
  function settings(container: Container): Map<string, Setting> {
    const result = new Map<string, Setting>();
    for (const source of container.envFrom ?? []) {
      if (source.configMapRef) {
        const data = configMaps.get(source.configMapRef.name);
        if (!data) throw new Error(`${container.name}: envFrom names ConfigMap ${source.configMapRef.name}, which is not in the kustomization`);
        for (const [key, value] of Object.entries(data)) result.set(key, { value });
      }
      if (source.secretRef) throw new Error(`${container.name}: take secrets one by one (secretKeyRef), so that the names set can be checked`);
    }
    for (const variable of container.env ?? []) {
      const secret = variable.valueFrom?.secretKeyRef;
      const configMapKey = variable.valueFrom?.configMapKeyRef;
      if (secret) result.set(variable.name, { secret: secret.name, key: secret.key, optional: secret.optional ?? false });
      else if (configMapKey) result.set(variable.name, { value: configMaps.get(configMapKey.name)?.[configMapKey.key] ?? '<missing>' });
      else result.set(variable.name, { value: variable.value ?? '' });
    }
    return result;
  }

  const valueOf = (container: Container, name: string) => {
    const setting = settings(container).get(name);
    return setting && 'value' in setting ? setting.value : undefined;
  };

  function containerPort(container: Container, port: number | string): number | undefined {
    return typeof port === 'number'
      ? container.ports?.find((entry) => entry.containerPort === port)?.containerPort
      : container.ports?.find((entry) => entry.name === port)?.containerPort;
  }

  /** The port the app listens on, as its config reads it. */
  function listenPort(container: Container): number {
    const app = appOf(container);
    const env = Object.fromEntries([...settings(container)].flatMap(([key, setting]) => ('value' in setting ? [[key, setting.value]] : [])));
    return app === 'gateway'
      ? loadGatewayConfig({ ...env, AUTH_JWT_SECRET: 'x'.repeat(32), AI_SERVICE_TOKEN: 't' }).port
      : loadAiConfig({ ...env, AI_SERVICE_TOKEN: 't' }).port;
  }

  beforeAll(() => {
    ({ kustomization, objects } = render());
    secretExample = yaml.load(readFileSync(SECRET_EXAMPLE, 'utf8')) as typeof secretExample;
    compose = composeServices();
    configMaps = new Map(all('ConfigMap').map((object) => [object.metadata.name, (object as K8sObject & { data?: Record<string, string> }).data ?? {}]));
  });

  it('should use only what the check renders, and list files that exist', () => {
    expect(Object.keys(kustomization).filter((key) => !KUSTOMIZATION_KEYS.has(key))).toEqual([]);
    expect(kustomization).toMatchObject({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization' });
    for (const file of kustomization.resources as string[]) expect(existsSync(join(KUSTOMIZE_DIR, file))).toBe(true);
    // The Secret is the operator's: `kubectl apply -k` must never overwrite it with the example's placeholders.
    expect(kustomization.resources).not.toContain('secret.example.yaml');
    const names = objects.map(({ object }) => `${object.kind}/${object.metadata?.name}`);
    expect(names.length).toBe(new Set(names).size);
  });

  it('should make every object, the Secret example too, valid against the Kubernetes schemas', async () => {
    const problems: string[] = [];
    for (const { file, object } of [...objects, { file: 'secret.example.yaml', object: secretExample }]) {
      const Model = await modelFor(object.apiVersion, object.kind);
      if (!Model) {
        problems.push(`${file}: ${object.apiVersion} ${object.kind} is no kind of the Kubernetes API`);
        continue;
      }
      try {
        new Model(object).validate();
      } catch (error) {
        problems.push(`${file}: ${object.kind} ${object.metadata?.name}: ${(error as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('should set no field the Kubernetes API does not know (kubectl refuses them)', () => {
    expect(unknownFields([...objects.map(({ object }) => object), secretExample])).toEqual([]);
  });

  it('should have a workload for every compose service but PostgreSQL and Redis, running its command in the same image', () => {
    const dockerfile = readFileSync(join(ROOT, 'docker/Dockerfile'), 'utf8');
    // Compose's `command` replaces the image's CMD and Kubernetes' `command` its ENTRYPOINT: the same only while there is none.
    expect(dockerfile).not.toMatch(/^ENTRYPOINT/m);
    const apps = Object.keys(compose).filter((name) => !BROUGHT_ALONG.has(name));
    expect(apps.length).toBeGreaterThan(0);
    for (const name of apps) {
      const counterpart = workload(name);
      expect({ name, found: !!counterpart }).toEqual({ name, found: true });
      const container = containerOf(counterpart!);
      expect({ name, command: [...(container.command ?? []), ...(container.args ?? [])] }).toEqual({ name, command: compose[name].command });
    }
    expect(compose.migrate && workload('migrate')?.kind).toBe('Job');
    const images = new Set(workloads().flatMap((object) => object.spec.template.spec.containers.map((container) => container.image)));
    const [image] = kustomization.images as { name: string; newName?: string; newTag?: string }[];
    expect([...images]).toEqual([`${image.newName ?? image.name}${image.newTag ? `:${image.newTag}` : ''}`]);
  });

  it('should set only settings libs/config reads, and every one compose sets, with its value', () => {
    const known = configVariables();
    expect(known.size).toBeGreaterThan(20);
    const unread: string[] = [];
    const differing: string[] = [];
    for (const object of workloads()) {
      for (const container of object.spec.template.spec.containers) {
        const set = settings(container);
        unread.push(...[...set.keys()].filter((name) => !known.has(name)).map((name) => `${object.metadata.name}: ${name}`));
        const environment = compose[object.metadata.name]?.environment ?? {};
        for (const [name, composeValue] of Object.entries(environment)) {
          const setting = set.get(name);
          if (SECRET_VARS.has(name)) {
            // A secret compose always sets (its URL, a required token) is required here too; an optional one may be absent.
            const required = composeValue !== '';
            if (!setting && !required) continue;
            const expected = {
              secret: secretExample.metadata.name,
              key: name,
              optional: required ? false : (setting as { optional?: boolean } | undefined)?.optional,
            };
            if (JSON.stringify(setting) !== JSON.stringify(expected))
              differing.push(
                `${object.metadata.name}: ${name} should come from Secret ${expected.secret}${required ? ' (not optional)' : ''}, got ${JSON.stringify(setting)}`,
              );
          } else if (composeValue !== '' && (!setting || !('value' in setting) || setting.value !== composeValue)) {
            differing.push(`${object.metadata.name}: ${name} is "${composeValue}" in compose, ${JSON.stringify(setting)} here`);
          }
        }
      }
    }
    expect(unread).toEqual([]);
    expect(differing).toEqual([]);
    for (const data of configMaps.values()) expect(Object.keys(data).filter((key) => SECRET_VARS.has(key))).toEqual([]);
  });

  it('should give each role a configuration its app accepts, every setting of which it reads', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'k8s-config-'));
    const testSecrets: Record<string, string> = {
      DATABASE_URL: 'postgres://platform:secret@postgres:5432/platform',
      AI_SERVICE_TOKEN: 'a-service-token-for-the-check',
      AUTH_JWT_SECRET: 'x'.repeat(32),
      OPENAI_API_KEY: 'sk-for-the-check',
    };
    try {
      const read = new Set<string>();
      const set = new Set<string>();
      for (const object of workloads()) {
        for (const container of object.spec.template.spec.containers) {
          const environment: Record<string, string | undefined> = Object.fromEntries(
            [...settings(container)].map(([name, setting]) => [name, 'value' in setting ? setting.value : testSecrets[setting.key]]),
          );
          Object.keys(environment).forEach((key) => set.add(key));
          // DATA_DIR holds generated dev secrets when none is configured: not this machine's /tmp.
          const recording = new Proxy<Record<string, string | undefined>>(
            { ...environment, DATA_DIR: dataDir },
            { get: (target, key: string) => (read.add(key), target[key]) },
          );
          const app = appOf(container);
          const loaders = app === 'ai' ? [loadAiConfig] : app === 'gateway' ? [loadGatewayConfig] : [loadAiConfig, loadGatewayConfig];
          for (const load of loaders) expect(() => load(recording)).not.toThrow();
        }
      }
      expect([...set].filter((key) => !read.has(key))).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('should leave migrations to the Job: DATABASE_MIGRATE=false in every long-running app', () => {
    const deployments = all('Deployment') as Workload[];
    expect(deployments.length).toBeGreaterThanOrEqual(3);
    for (const object of deployments)
      expect({ name: object.metadata.name, DATABASE_MIGRATE: valueOf(containerOf(object), 'DATABASE_MIGRATE') }).toEqual({
        name: object.metadata.name,
        DATABASE_MIGRATE: 'false',
      });
    const migrate = containerOf(workload('migrate')!);
    expect(migrate.command).toEqual(['node', 'dist/apps/cli/src/migrate.js']);
  });

  it("should run each AI role as compose does, with compose's roles, ports and worker replicas", () => {
    for (const [name, service] of Object.entries(compose)) {
      const counterpart = deployment(name);
      if (!counterpart) continue;
      const container = containerOf(counterpart);
      expect({ name, AI_ROLE: valueOf(container, 'AI_ROLE') }).toEqual({ name, AI_ROLE: service.environment?.AI_ROLE });
      // The port the app listens on: compose's healthcheck and published port, and the container's declared port.
      const port = listenPort(container);
      const healthPort = /127\.0\.0\.1:(\d+)\//.exec(service.healthcheck?.test.join(' ') ?? '')?.[1];
      if (healthPort) expect({ name, port }).toEqual({ name, port: Number(healthPort) });
      for (const published of service.ports ?? []) expect({ name, port }).toEqual({ name, port: Number(published.split(':').at(-1)) });
      expect({ name, ports: container.ports?.map((entry) => entry.containerPort) }).toEqual({ name, ports: [port] });
      if (service.deploy?.replicas) expect({ name, replicas: counterpart.spec.replicas }).toEqual({ name, replicas: service.deploy.replicas });
    }
    expect(valueOf(containerOf(deployment('ai-api')!), 'AI_ROLE')).toBe('api');
    expect(valueOf(containerOf(deployment('ai-worker')!), 'AI_ROLE')).toBe('worker');
    expect(valueOf(containerOf(deployment('ai-worker')!), 'INDEXING_CONCURRENCY')).toBe('1');
    for (const name of ['gateway', 'ai-api', 'ai-worker']) expect(deployment(name)?.spec.replicas).toBeGreaterThanOrEqual(2);
  });

  it('should select its own pods with every Service, on a port they listen on; the gateway reaches ai-api through its Service', () => {
    const services = all('Service') as Service[];
    const backends = new Map<string, Workload>();
    for (const service of services) {
      const selected = (all('Deployment') as Workload[]).filter((object) => selects(service.spec.selector, object.spec.template.metadata?.labels));
      expect({ service: service.metadata.name, selects: selected.map((object) => object.metadata.name) }).toEqual({
        service: service.metadata.name,
        selects: [service.metadata.name],
      });
      const container = containerOf(selected[0]);
      for (const port of service.spec.ports) {
        expect({ service: service.metadata.name, targetPort: containerPort(container, port.targetPort ?? port.port) }).toEqual({
          service: service.metadata.name,
          targetPort: listenPort(container),
        });
      }
      backends.set(service.metadata.name, selected[0]);
    }
    expect([...backends.keys()].sort()).toEqual(['ai-api', 'gateway']);
    expect(services.find((service) => service.metadata.name === 'gateway')!.spec.ports.map((port) => port.port)).toEqual([8080]);

    const aiUrl = new URL(valueOf(containerOf(deployment('gateway')!), 'AI_URL')!);
    const target = services.find((service) => service.metadata.name === aiUrl.hostname.split('.')[0]);
    expect(target?.metadata.name).toBe('ai-api');
    expect(target!.spec.ports.map((port) => port.port)).toContain(Number(aiUrl.port || 80));
    // The Service must lead to an AI app that answers searches.
    expect(['api', 'all']).toContain(valueOf(containerOf(backends.get(target!.metadata.name)!), 'AI_ROLE'));
  });

  it('should probe paths the apps serve, without a token, on the port they listen on', () => {
    const publicAi = aiPublicPaths();
    for (const object of all('Deployment') as Workload[]) {
      const container = containerOf(object);
      const app = appOf(container)!;
      const routes = healthRoutes(app);
      const name = object.metadata.name;
      expect({ name, liveness: container.livenessProbe?.httpGet?.path }).toEqual({ name, liveness: '/healthz' });
      // Started once /readyz says the database, Redis and the AI app answer, where the app has it;
      // ready on /healthz after that: a shared dependency gone must not unready every replica at once
      // (the gateway's degraded mode serves what it can).
      expect({ name, startup: container.startupProbe?.httpGet?.path }).toEqual({ name, startup: routes.has('/readyz') ? '/readyz' : '/healthz' });
      expect({ name, readiness: container.readinessProbe?.httpGet?.path }).toEqual({ name, readiness: '/healthz' });
      for (const probe of [container.livenessProbe, container.readinessProbe, container.startupProbe]) {
        if (!probe) continue;
        const { path, port } = probe.httpGet!;
        expect({ name, path, served: routes.has(path) }).toEqual({ name, path, served: true });
        if (app === 'ai') expect({ name, path, public: publicAi.has(path) }).toEqual({ name, path, public: true });
        expect({ name, path, port: containerPort(container, port) }).toEqual({ name, path, port: listenPort(container) });
      }
    }
  });

  it("should run as the image's non-root user, with DATA_DIR on a writable emptyDir", () => {
    const dockerfile = readFileSync(join(ROOT, 'docker/Dockerfile'), 'utf8');
    const user = [...dockerfile.matchAll(/^USER\s+(\S+)/gm)].map((match) => match[1]).at(-1)!;
    // The official node images' `node` user; the kubelet can check runAsNonRoot only against a number.
    const uid = user === 'node' ? 1000 : Number(user.split(':')[0]);
    expect(uid).toBeGreaterThan(0);
    for (const object of workloads()) {
      const pod = object.spec.template.spec;
      for (const container of pod.containers) {
        const name = `${object.metadata.name}/${container.name}`;
        const context = { ...pod.securityContext, ...container.securityContext };
        expect({ name, runAsNonRoot: context.runAsNonRoot, runAsUser: context.runAsUser }).toEqual({ name, runAsNonRoot: true, runAsUser: uid });
        if (!context.readOnlyRootFilesystem) continue;
        const dataDir = valueOf(container, 'DATA_DIR');
        const mount = container.volumeMounts?.find((entry) => dataDir === entry.mountPath || dataDir?.startsWith(`${entry.mountPath}/`));
        const volume = pod.volumes?.find((entry) => entry.name === mount?.name);
        expect({ name, dataDir, writable: !!volume?.emptyDir }).toEqual({ name, dataDir, writable: true });
      }
    }
  });

  it('should give every container requests and limits, the AI roles room for the in-process model', () => {
    for (const object of workloads()) {
      for (const container of object.spec.template.spec.containers) {
        const name = `${object.metadata.name}/${container.name}`;
        const { requests = {}, limits = {} } = container.resources ?? {};
        expect({ name, requests: Object.keys(requests).sort(), limits: Object.keys(limits).sort() }).toEqual({
          name,
          requests: ['cpu', 'memory'],
          limits: ['cpu', 'memory'],
        });
        for (const resource of ['cpu', 'memory']) expect(quantity(requests[resource])).toBeLessThanOrEqual(quantity(limits[resource]));
        if (appOf(container) === 'ai') expect({ name, memory: quantity(limits.memory) >= 1024 ** 3 }).toEqual({ name, memory: true });
      }
    }
    const memory = (name: string) => quantity(containerOf(deployment(name)!).resources!.limits!.memory);
    expect(memory('gateway')).toBeLessThan(memory('ai-api'));
  });

  it('should take secrets from the Secret, whose example has every key and only placeholders', () => {
    expect(secretExample.kind).toBe('Secret');
    const example = { ...secretExample.data, ...secretExample.stringData };
    for (const value of Object.values(example)) expect(value).toMatch(/CHANGE-ME/);
    for (const object of workloads()) {
      for (const container of object.spec.template.spec.containers) {
        for (const [name, setting] of settings(container)) {
          if (SECRET_VARS.has(name)) expect({ name, fromSecret: 'secret' in setting }).toEqual({ name, fromSecret: true });
          if (!('secret' in setting)) continue;
          expect({ name, secret: setting.secret }).toEqual({ name, secret: secretExample.metadata.name });
          // A key the example leaves out (commented) must be optional.
          if (!setting.optional) expect({ name, inExample: setting.key in example }).toEqual({ name, inExample: true });
        }
      }
    }
  });

  it('should keep one gateway and one ai-api through voluntary disruptions', () => {
    const budgets = all('PodDisruptionBudget') as DisruptionBudget[];
    for (const name of ['gateway', 'ai-api']) {
      const target = deployment(name)!;
      const budget = budgets.find((entry) => selects(entry.spec.selector.matchLabels, target.spec.template.metadata?.labels));
      expect({ name, budget: !!budget }).toEqual({ name, budget: true });
      // Below the replicas, or no node could ever be drained.
      if (typeof budget!.spec.minAvailable === 'number') expect(budget!.spec.minAvailable).toBeLessThan(target.spec.replicas ?? 1);
      expect(budget!.spec.minAvailable ?? budget!.spec.maxUnavailable).toBeDefined();
    }
  });

  it('should scale the workers on the queue-depth metric the apps export', () => {
    const exported = gauges();
    expect(exported.has('indexing_queue_jobs')).toBe(true);
    const autoscalers = all('HorizontalPodAutoscaler') as Autoscaler[];
    const worker = autoscalers.find((entry) => entry.spec.scaleTargetRef.kind === 'Deployment' && entry.spec.scaleTargetRef.name === 'ai-worker');
    expect(worker?.apiVersion).toBe('autoscaling/v2');
    const replicas = deployment('ai-worker')!.spec.replicas!;
    expect(worker!.spec.minReplicas).toBeLessThanOrEqual(replicas);
    expect(worker!.spec.maxReplicas).toBeGreaterThan(replicas);
    const metrics = worker!.spec.metrics ?? [];
    expect(metrics.length).toBeGreaterThan(0);
    for (const metric of metrics) {
      const source = metric.external ?? metric.pods;
      expect({ type: metric.type, name: source?.metric.name, exported: exported.has(source?.metric.name ?? '') }).toEqual({
        type: metric.type,
        name: source?.metric.name,
        exported: true,
      });
      const labels = exported.get(source!.metric.name)!;
      const selector = source!.metric.selector;
      const keys = [...Object.keys(selector?.matchLabels ?? {}), ...(selector?.matchExpressions ?? []).map((expression) => expression.key)];
      expect(keys.filter((key) => !labels.includes(key))).toEqual([]);
    }
    for (const object of autoscalers) expect(deployment(object.spec.scaleTargetRef.name)).toBeDefined();
  });
});
