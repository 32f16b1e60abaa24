import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hashEmbedding } from '#embeddings';
import { stoppable } from './leftovers.js';

/** One embeddings request: when, how many texts, and who sent it (the API key it came with). */
export interface EmbeddingRequest {
  at: number;
  inputs: number;
  key: string;
}

/**
 * An OpenAI-compatible embeddings server (`POST /v1/embeddings`, hash vectors) that several
 * processes share and that tells them apart: give each process its own `OPENAI_API_KEY` (a key
 * is never part of the model's identity, so they all use the same model) and each request is
 * recorded with it. While held, requests are recorded but not answered: a worker's job is then
 * surely in its embedding step, and the request's key says which worker holds it.
 */
export class KeyedFakeOpenAi {
  readonly requests: EmbeddingRequest[] = [];
  private server?: Server;
  private stopServer?: () => Promise<void>;
  private held?: Promise<void>;

  constructor(private readonly dimensions: number) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
  }

  /** Answers nothing until the returned function is called. */
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
    const key = (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    this.requests.push({ at: Date.now(), inputs: inputs.length, key });
    await this.held;
    if (response.destroyed) return; // its sender is gone (killed while held)
    const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: hashEmbedding(text, this.dimensions) }));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 0, total_tokens: 0 } }));
  }
}
