import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The few calls of the `semver` package (npm's own, installed with the dependencies) used here. */
interface Semver {
  satisfies(version: string, range: string): boolean;
  validRange(range: string): string | null;
}
const semver = createRequire(join(process.cwd(), 'package.json'))('semver') as Semver;

/** The lowest release of each supported Node.js LTS line (README: Node.js versions). */
const SUPPORTED = ['22.13.0', '24.11.0'];

type Engines = { node?: string } | string[] | undefined;
const readJson = <T>(file: string) => JSON.parse(readFileSync(join(process.cwd(), file), 'utf8')) as T;
const nodeRange = (engines: Engines) => (Array.isArray(engines) ? engines.find((item) => item.startsWith('node'))?.replace(/^node\s*/, '') : engines?.node);

/**
 * The Node.js versions the project supports (#39): the LTS lines 22 and 24, from their lowest
 * release every dependency accepts. Node 20 still runs the suite (CI) but is past its end of life.
 */
describe('Node.js engines', () => {
  const pkg = readJson<{ engines: { node: string } }>('package.json');
  const lock = readJson<{ packages: Record<string, { engines?: Engines; dev?: boolean }> }>('package-lock.json');

  it('should support Node 22 and 24 from their lowest releases that every dependency accepts, and no longer claim Node 20', () => {
    const range = pkg.engines.node;
    expect(SUPPORTED.map((version) => semver.satisfies(version, range))).toEqual([true, true]);
    // The lowest of each line: the one before is not claimed.
    expect(['22.12.0', '24.10.0', '20.19.0', '23.11.0'].map((version) => semver.satisfies(version, range))).toEqual([false, false, false, false]);
    // A later line is not turned away.
    expect(semver.satisfies('26.0.0', range)).toBe(true);
    expect(lock.packages[''].engines).toEqual(pkg.engines);
  });

  it('should build the Docker image on a supported line: Node 24, the active LTS', () => {
    const dockerfile = readFileSync(join(process.cwd(), 'docker/Dockerfile'), 'utf8');
    const nodeImages = [...dockerfile.matchAll(/\bnode:(\d+)[\w.-]*/g)].map((match) => match[1]);
    expect(nodeImages).toEqual(['24']);
    expect(semver.satisfies('24.999.0', pkg.engines.node)).toBe(true);
    // Both stages from that one image.
    expect([...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((match) => match[1])).toEqual(['${NODE_IMAGE}', '${NODE_IMAGE}']);
  });

  it('should install every package of the lock file on the lowest supported releases without an EBADENGINE warning', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path]) => path !== '')
      .map(([path, entry]) => ({ name: path.replace(/^.*node_modules\//, ''), range: nodeRange(entry.engines) }))
      .filter((item): item is { name: string; range: string } => item.range !== undefined && semver.validRange(item.range) !== null)
      .flatMap(({ name, range }) =>
        SUPPORTED.filter((version) => !semver.satisfies(version, range)).map((version) => `${name} (node ${range}) refuses ${version}`),
      );
    expect(refusing).toEqual([]);
  });
});
