import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { Parser } from 'pg-protocol/dist/parser.js';
import type { BackendMessage } from 'pg-protocol/dist/messages.js';

const require = createRequire(import.meta.url);

// Runs in the thread (CommonJS eval, so it works the same from `dist/` and under Jest): one
// PGlite, fed raw PostgreSQL wire-protocol bytes, answering with raw bytes.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require(workerData.pglite);
const extensions = Object.fromEntries(workerData.extensions.map(([name, path]) => [name, require(path)[name]]));
// A seed is a dump of a data directory as initdb leaves it: loading it skips initdb, which is
// what PGlite itself does with the one it has just run.
const loadDataDir = workerData.seed ? new Blob([require('node:fs').readFileSync(workerData.seed)]) : undefined;
const ready = PGlite.create(workerData.dataDir, { extensions, loadDataDir });
parentPort.on('message', async ({ id, bytes, close }) => {
  try {
    const db = await ready;
    if (close) {
      await db.close();
      parentPort.postMessage({ id });
      return;
    }
    // Raw bytes, collected here: execProtocolRaw also parses each answer into a list that only
    // execProtocol/execProtocolStream clear, which grew by every answer (4 GB after 150 listings).
    const chunks = [];
    await db.execProtocolRawStream(bytes, { onRawData: (chunk) => chunks.push(chunk.slice()) });
    const answer = new Uint8Array(chunks.reduce((length, chunk) => length + chunk.length, 0));
    let offset = 0;
    for (const chunk of chunks) {
      answer.set(chunk, offset);
      offset += chunk.length;
    }
    parentPort.postMessage({ id, bytes: answer }, [answer.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
ready.then(() => parentPort.postMessage({ ready: true }), (error) => parentPort.postMessage({ failed: String((error && error.message) || error) }));
`;

/** The extensions the migrations create, as PGlite bundles them: [export name, module]. */
const EXTENSIONS: [string, string][] = [
  ['vector', '@electric-sql/pglite-pgvector'],
  ['pg_trgm', '@electric-sql/pglite/contrib/pg_trgm'],
  ['btree_gist', '@electric-sql/pglite/contrib/btree_gist'],
];

/**
 * The thread's own JS heap holds little (answers leave it as transferred buffers, and PGlite's
 * memory is its WASM memory): a ceiling turns a leak into a clear error, not a machine out of memory.
 */
const THREAD_HEAP_MB = 512;

// Frontend messages that node-postgres sends one call at a time before a Sync: Parse, Bind,
// Describe, Execute, Close. Over TCP they travel together; so do they here (one round trip a query).
const DEFERRED = new Set(['P', 'B', 'D', 'E', 'C'].map((letter) => letter.charCodeAt(0)));

interface Pending {
  resolve: (bytes: Uint8Array) => void;
  reject: (error: Error) => void;
}

/**
 * PGlite (PostgreSQL compiled to WASM) in a worker thread of its own. PGlite executes each
 * statement synchronously on the thread that owns it: in the app's main thread, one long
 * statement froze the HTTP server, health checks and job-lock renewals for its whole length.
 * Here the main thread only passes wire-protocol bytes, so it stays free whatever the database
 * does. It has what `createPgConfig` (node-postgres over PGlite) needs of a PGlite instance.
 */
export class PGliteThread {
  readonly waitReady: Promise<void>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private deferred: Uint8Array[] = [];
  private stopped?: Error;

  /** `seed`: a dump (tar) of a freshly initialised data directory to start from instead of running initdb. */
  constructor(dataDir: string, seed?: string) {
    this.worker = new Worker(THREAD_SOURCE, {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
      workerData: {
        dataDir,
        seed,
        pglite: require.resolve('@electric-sql/pglite'),
        extensions: EXTENSIONS.map(([name, module]) => [name, require.resolve(module)]),
      },
    });
    // Held only while a request is under way (see `request`): an idle database keeps no process alive.
    this.worker.unref();
    this.waitReady = new Promise((resolve, reject) => {
      this.worker.on('message', (message: { id?: number; bytes?: Uint8Array; error?: string; ready?: true; failed?: string }) => {
        if (message.ready) return resolve();
        if (message.failed) return reject(new Error(`The embedded database did not start: ${message.failed}`));
        const request = this.pending.get(message.id!);
        this.pending.delete(message.id!);
        if (this.pending.size === 0) this.worker.unref();
        if (message.error) request?.reject(new Error(message.error));
        else request?.resolve(message.bytes ?? new Uint8Array(0));
      });
      this.worker.on('error', (error) => this.stop(new Error(`The embedded database thread failed: ${error.message}`), reject));
      this.worker.on('exit', (code) => this.stop(new Error(`The embedded database thread stopped (exit code ${code})`), reject));
    });
  }

  /** What `PglitePgConnection` calls for each protocol message: the backend's answers, parsed. */
  async execProtocolStream(message: Uint8Array): Promise<BackendMessage[]> {
    if (DEFERRED.has(message[0])) {
      this.deferred.push(Uint8Array.from(message));
      return [];
    }
    const answer = await this.request({ bytes: concat([...this.deferred.splice(0), message]) });
    const messages: BackendMessage[] = [];
    new Parser().parse(Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength), (parsed) => messages.push(parsed));
    return messages;
  }

  /** Closes the database (flushing it to disk) and ends the thread. */
  async close(): Promise<void> {
    if (this.stopped) return;
    await this.request({ close: true }).catch(() => undefined);
    this.stop(new Error('The embedded database is closed'));
    await this.worker.terminate();
  }

  private request(message: { bytes?: Uint8Array; close?: true }): Promise<Uint8Array> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ id, ...message }, message.bytes ? [message.bytes.buffer as ArrayBuffer] : []);
    });
  }

  private stop(error: Error, rejectStart?: (error: Error) => void): void {
    this.stopped ??= error;
    rejectStart?.(error);
    for (const request of this.pending.values()) request.reject(error);
    this.pending.clear();
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}
