import { isObject } from '../is-object.js';
import { SpecError } from '../spec-error.js';
import type { ReadSpec, SpecFormat } from './spec-format.js';
import { SpecSource } from './spec-source.js';

/** The injection token under which `SpecFormatsModule` provides every `SpecFormat`, in detection order. */
export const SPEC_FORMATS = Symbol('SPEC_FORMATS');

/** A spec read by the format it was registered as, or else the first format that recognises it. */
export interface ReadWithFormat {
  format: SpecFormat;
  spec: ReadSpec;
}

/** The spec formats this process knows, and how a spec finds its own. */
export class SpecFormats {
  constructor(readonly all: readonly SpecFormat[]) {}

  get kinds(): string[] {
    return this.all.map((format) => format.kind);
  }

  byKind(kind: string): SpecFormat | undefined {
    return this.all.find((format) => format.kind === kind);
  }

  /** Whether a parsed JSON or YAML document says it is a spec of some format, valid or not (`SpecMarker`). */
  marked(document: unknown): boolean {
    return isObject(document) && this.all.some((format) => format.marker?.in(document));
  }

  /** Whether unparsed text carries some format's marker (`SpecMarker.text`). */
  markedText(text: string): boolean {
    return this.all.some((format) => format.marker?.text.test(text));
  }

  /**
   * Reads a spec as `kind` says, or as the first format that recognises it. Throws a `SpecError`
   * that names the problem: the format's own reason, or what no format found.
   */
  read(input: string | Record<string, unknown>, kind?: string): ReadWithFormat {
    const source = new SpecSource(input);
    const format = kind === undefined ? this.detect(source) : this.byKind(kind);
    if (!format) throw new SpecError(`Unknown format "${kind}": known formats are ${this.kinds.join(', ')}`);
    return { format, spec: format.read(source) };
  }

  private detect(source: SpecSource): SpecFormat {
    const format = this.all.find((candidate) => candidate.detect(source));
    if (format) return format;
    if (!source.text.trim()) throw new SpecError('The spec is empty');
    // Text no format recognises, and that is not JSON or YAML either, is told where it broke as
    // JSON or YAML: the text formats recognise their own even when broken, to say where.
    source.parsed();
    const expected = this.all.map((candidate) => candidate.signature);
    const list = expected.length > 1 ? `${expected.slice(0, -1).join(', ')} or ${expected.at(-1)}` : expected[0];
    throw new SpecError(`The spec's format was not recognised: expected ${list}. Name its format in "format" to see what is wrong with it`);
  }
}
