import type { Agent, IncomingMessage } from 'node:http';
import * as http from 'node:http';
import * as https from 'node:https';
import {
  BadRequestException,
  GatewayTimeoutException,
  HttpException,
  Inject,
  Injectable,
  PayloadTooLargeException,
  UnprocessableEntityException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { useAgent } from 'request-filtering-agent';
import type { GatewayConfig } from '#config';
import { GATEWAY_CONFIG } from '../gateway.constants.js';

/** Redirects followed, each through the address guard. */
export const MAX_REDIRECTS = 5;

/** The only words a refused address gets: nothing from it, not even which rule refused it. */
export const ADDRESS_REFUSED = "The URL's address is not allowed: imports may not reach loopback, private, link-local or metadata addresses";

/** JSON, YAML and text (GraphQL SDL, .proto); HTML is a login or error page, never a spec. */
const SPEC_MEDIA_TYPE = /^(application\/(json|[\w.+-]*\+json|(x-)?yaml|graphql|octet-stream)|text\/(?!html)[\w.+-]+)$/;

/** The validators of a good fetch, sent back on the next one (`If-None-Match`, `If-Modified-Since`). */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

export type FetchedSpec = ({ notModified: false; text: string } & Validators) | { notModified: true };

/**
 * Fetches a spec from a URL without letting the URL reach inside the platform's network (SSRF):
 * only http and https; every connection goes through `request-filtering-agent`, which checks the
 * address actually connected to (after DNS, so a name that resolves to loopback, or changes
 * between a check and the connection, is refused) unless the URL's `host:port` is one of
 * IMPORT_ALLOWED_HOSTS; redirects are followed here, each hop through the same guard. Within
 * SPEC_MAX_BYTES (413) and IMPORT_TIMEOUT_MS for the whole fetch (504). Errors are Nest HTTP
 * exceptions whose messages hold nothing the server sent, beyond its status.
 */
@Injectable()
export class SpecFetcher {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  /** `cancel`: the caller went away, and the fetch stops at once (its slot is then free). */
  async fetch(address: string, validators: Validators = {}, cancel?: AbortSignal): Promise<FetchedSpec> {
    const timeout = AbortSignal.timeout(this.config.import.timeoutMs);
    const signal = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
    let url = httpUrl(address);
    for (let redirects = 0; ; redirects++) {
      const response = await this.get(url, validators, signal);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && status !== 304) {
        response.resume();
        if (redirects === MAX_REDIRECTS) throw new UnprocessableEntityException(`The URL redirected more than ${MAX_REDIRECTS} times`);
        const location = response.headers.location;
        if (!location) throw new UnprocessableEntityException(`The URL answered ${status} without a Location`);
        url = redirectUrl(location, url);
        continue;
      }
      if (status === 304) {
        response.resume();
        return { notModified: true };
      }
      if (status !== 200) {
        response.resume();
        throw new UnprocessableEntityException(`The URL answered ${status}, not 200 with a spec`);
      }
      const text = await this.body(response, signal);
      const { etag, 'last-modified': lastModified } = response.headers;
      return { notModified: false, text, ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
    }
  }

  private get(url: URL, { etag, lastModified }: Validators, signal: AbortSignal): Promise<IncomingMessage> {
    const headers = {
      accept: 'application/json, application/yaml, text/yaml, text/plain;q=0.9, */*;q=0.1',
      ...(etag ? { 'if-none-match': etag } : {}),
      ...(lastModified ? { 'if-modified-since': lastModified } : {}),
    };
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      transport
        .get(url, { agent: guardAgent(url, this.config.import.allowedHosts), headers, signal }, resolve)
        .on('error', (error) => reject(fetchError(error, signal)));
    });
  }

  private async body(response: IncomingMessage, signal: AbortSignal): Promise<string> {
    const mediaType = (response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const limit = this.config.specMaxBytes;
    const tooLarge = () => new PayloadTooLargeException(`The document is larger than the limit of ${limit} bytes (SPEC_MAX_BYTES)`);
    try {
      if (mediaType && !SPEC_MEDIA_TYPE.test(mediaType)) throw new UnsupportedMediaTypeException(`The URL answered ${mediaType}, not JSON, YAML or text`);
      if (Number(response.headers['content-length']) > limit) throw tooLarge();
      // Each chunk decoded as it arrives and let go: one copy of the text while reading, not the
      // bytes, their concatenation and the text (3× SPEC_MAX_BYTES per fetch).
      const decoder = new TextDecoder();
      const parts: string[] = [];
      let bytes = 0;
      for await (const chunk of response as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        // Stop reading past the limit: a server may send without end.
        if (bytes > limit) throw tooLarge();
        parts.push(decoder.decode(chunk, { stream: true }));
      }
      parts.push(decoder.decode());
      return parts.join('');
    } catch (error) {
      response.destroy();
      throw fetchError(error, signal);
    }
  }
}

/** An http or https URL (400 otherwise), its host as a URL spells it: `2130706433` and `0x7f000001` are `127.0.0.1`. */
export function httpUrl(address: string): URL {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new BadRequestException('url must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BadRequestException('url must be an http or https URL');
  if (url.username || url.password) throw new BadRequestException('url must not hold credentials');
  return url;
}

function redirectUrl(location: string, from: URL): URL {
  try {
    return httpUrl(new URL(location, from).href);
  } catch {
    // A redirect to file:, or anything else that is not http(s), is refused like an address.
    throw new UnprocessableEntityException(ADDRESS_REFUSED);
  }
}

/** `host:port` as IMPORT_ALLOWED_HOSTS lists it, the port the scheme's own when the URL has none. */
export function isAllowedHost(url: URL, allowedHosts: readonly string[]): boolean {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowedHosts.includes(`${url.hostname.toLowerCase()}:${port}`);
}

/**
 * The agent a connection to `url` goes through: an allowed `host:port` connects as any request
 * would; every other URL through `request-filtering-agent`, which refuses loopback, private,
 * link-local, metadata and unspecified (`0.0.0.0`, `::`) addresses, by the address connected to.
 */
export function guardAgent(url: URL, allowedHosts: readonly string[]): Agent | undefined {
  return isAllowedHost(url, allowedHosts) ? undefined : useAgent(url.href);
}

/** An HTTP exception for a failed fetch; the guard's own message (which names the address) never leaves. */
function fetchError(error: unknown, signal: AbortSignal): HttpException {
  if (error instanceof HttpException) return error;
  if (signal.aborted && signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError') {
    return new GatewayTimeoutException('The URL did not answer within IMPORT_TIMEOUT_MS');
  }
  // Nobody is left to read this answer; it ends the fetch and frees its slot.
  if (signal.aborted) return new HttpException('The request was closed before the spec was fetched', 499);
  const message = error instanceof Error ? error.message : '';
  if (/ is not allowed\. Because/.test(message)) return new UnprocessableEntityException(ADDRESS_REFUSED);
  const code = (error as { code?: unknown })?.code;
  return new UnprocessableEntityException(`The URL could not be fetched${typeof code === 'string' && /^[A-Z_]+$/.test(code) ? ` (${code})` : ''}`);
}
