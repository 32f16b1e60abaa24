import OpenAI from 'openai';
import { EmbeddingError, type EmbeddingProvider, type EmbeddingProviderFactory } from './embedding-provider.js';

export interface OpenAiEmbeddingOptions {
  apiKey?: string;
  baseUrl?: string;
  model: string;
  dimensions?: number;
  timeoutMs: number;
  batchSize: number;
  /** Retries of a 429 (after its Retry-After), 408, 409 or 5xx, with exponential backoff. */
  maxRetries?: number;
}

const KNOWN_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

/**
 * Any OpenAI-compatible embeddings endpoint (OpenAI, Azure, Ollama, vLLM, TEI, LocalAI).
 * The SDK retries 429/5xx with backoff; we add batching and a per-request timeout.
 */
export class OpenAiEmbeddingProvider implements EmbeddingProvider {
  readonly modelId: string;
  readonly dimensions: number;
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiEmbeddingOptions) {
    const dimensions = options.dimensions ?? KNOWN_DIMENSIONS[options.model];
    if (!dimensions) {
      throw new EmbeddingError(`Unknown dimensions for model "${options.model}": set EMBEDDINGS_DIMENSIONS`);
    }
    this.dimensions = dimensions;
    this.modelId = `openai:${options.model}:${dimensions}`;
    this.client = new OpenAI({
      apiKey: options.apiKey ?? 'not-needed',
      baseURL: options.baseUrl,
      timeout: options.timeoutMs,
      maxRetries: options.maxRetries ?? 4,
    });
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += this.options.batchSize) {
      vectors.push(...(await this.request(texts.slice(start, start + this.options.batchSize))));
    }
    return vectors;
  }

  async embedQuery(text: string): Promise<number[]> {
    const [vector] = await this.request([text]);
    return vector;
  }

  private async request(input: string[]): Promise<number[][]> {
    try {
      const response = await this.client.embeddings.create({
        model: this.options.model,
        input,
        // The SDK asks for base64 unless told otherwise; many compatible servers only speak floats.
        encoding_format: 'float',
        ...(this.options.dimensions ? { dimensions: this.options.dimensions } : {}),
      });
      const vectors = [...response.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
      if (vectors.length !== input.length || vectors.some((v) => v.length !== this.dimensions)) {
        throw new EmbeddingError(`Embedding server returned ${vectors.length} vectors of unexpected size for ${input.length} inputs`);
      }
      return vectors;
    } catch (error) {
      if (error instanceof EmbeddingError) throw error;
      throw new EmbeddingError(`Embedding request failed: ${(error as Error).message}`);
    }
  }
}

export const openAiProviderFactory = {
  name: 'openai',
  create: (spec, runtime) =>
    new OpenAiEmbeddingProvider({
      apiKey: runtime.apiKey,
      baseUrl: spec.baseUrl,
      model: spec.model ?? 'text-embedding-3-small',
      dimensions: spec.dimensions,
      timeoutMs: runtime.timeoutMs,
      batchSize: runtime.batchSize,
    }),
} as const satisfies EmbeddingProviderFactory;
