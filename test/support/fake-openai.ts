import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hashEmbedding } from '#embeddings';
import { stoppable } from './leftovers.js';

type Fault = { status: number; retryAfter?: string } | 'wrong-size';

/** One embeddings request: when, how many texts, and who sent it (the API key it came with). */
export interface EmbeddingRequest {
  at: number;
  inputs: number;
  key: string;
}

/**
 * A local server speaking the OpenAI embeddings protocol (`POST /v1/embeddings`), with faults
 * to inject: each queued fault answers one request instead of the embeddings. Processes that
 * share it are told apart by their `OPENAI_API_KEY` (a key is never part of the model's identity):
 * each request is recorded with it.
 */
export class FakeOpenAi {
  readonly requests: EmbeddingRequest[] = [];
  private readonly faults: Fault[] = [];
  private server?: Server;
  private stopServer?: () => Promise<void>;
  /** While set, requests wait for it before they are answered. */
  private held?: Promise<void>;

  constructor(private readonly dimensions: number) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
  }

  fail(...faults: Fault[]): void {
    this.faults.push(...faults);
  }

  /** Answers nothing until the returned function is called (requests still arrive and are counted). */
  hold(): () => void {
    let release!: () => void;
    this.held = new Promise((resolve) => (release = resolve));
    return () => {
      this.held = undefined;
      release();
    };
  }

  /** Requests sent with `key` since `since` (a time from `Date.now()`). */
  from(key: string, since = 0): EmbeddingRequest[] {
    return this.requests.filter((request) => request.key === key && request.at >= since);
  }

  async start(): Promise<this> {
    const server = createServer((request, response) => void this.handle(request, response));
    this.server = server;
    this.stopServer = stoppable(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    await this.stopServer?.();
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    if (request.method !== 'POST' || request.url !== '/v1/embeddings') return void response.writeHead(404).end();
    const body = JSON.parse(raw) as { input: string | string[]; model: string };
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    this.requests.push({ at: Date.now(), inputs: inputs.length, key: (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '') });
    await this.held;
    if (response.destroyed) return; // its sender is gone (killed while held)
    const fault = this.faults.shift();
    if (fault && fault !== 'wrong-size') {
      response.writeHead(fault.status, { 'content-type': 'application/json', ...(fault.retryAfter ? { 'retry-after': fault.retryAfter } : {}) });
      return void response.end(JSON.stringify({ error: { message: `injected ${fault.status}`, type: 'server_error' } }));
    }
    const size = fault === 'wrong-size' ? this.dimensions - 1 : this.dimensions;
    // Out of order on purpose: clients must sort by index.
    const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: hashEmbedding(text, size) })).reverse();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 0, total_tokens: 0 } }));
  }
}
