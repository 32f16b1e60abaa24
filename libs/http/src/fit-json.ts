/** What `fitJson` keeps of each string and list on its first try: more than any real answer holds. */
const FIRST_TRY = { chars: 10_000, items: 1_000 };
/** Below these it stops tightening: the answer's shape still says what it is. */
const LAST_TRY = { chars: 40, items: 3 };
/** Cuts named one by one; the rest are counted. */
const NAMED_CUTS = 5;
/** Deeper than any answer's nesting (schemas stop at 100): a guard, not a limit that bites. */
const MAX_DEPTH = 250;

export interface FitOptions {
  /** Items of a list (and keys of an object) kept on the first try, for answers that list many things (5,000 operations). */
  items?: number;
  /** Where the value stands in its answer, for the cuts' words: `operations` gives `operations[3].path: …`. */
  path?: string;
}

export interface Fitted<T> {
  value: T;
  /** What was cut, in words (`servers[0].url: 2,000 of 2,097,152 characters`); empty when nothing was. */
  cuts: string[];
}

/**
 * An answer made to fit in `maxChars` characters of JSON, whatever the document behind it held:
 * strings are cut short (ending in `…`), then lists and objects keep their first items, tighter
 * on each try until it fits. Nothing changes type or moves, so a reader of the full answer reads the
 * fitted one (a schema stays a schema); what was cut is told in `cuts`.
 */
export function fitJson<T>(value: T, maxChars: number, options: FitOptions = {}): Fitted<T> {
  let limits = { chars: FIRST_TRY.chars, items: options.items ?? FIRST_TRY.items };
  for (;;) {
    const last = limits.chars <= LAST_TRY.chars && limits.items <= LAST_TRY.items;
    // A try that cannot fit stops early: no try walks much more than the answer may hold.
    const walk = new FitWalk(limits, last ? Infinity : maxChars);
    const fitted = walk.copy(value, options.path ?? '', 0) as T;
    if (walk.size <= maxChars || last) return { value: fitted, cuts: walk.notes() };
    // Texts get shorter first: a list keeps its length (a search its cards) while it can.
    limits =
      limits.chars > LAST_TRY.chars
        ? { ...limits, chars: Math.max(LAST_TRY.chars, Math.floor(limits.chars / 4)) }
        : { ...limits, items: Math.max(LAST_TRY.items, Math.floor(limits.items / 4)) };
  }
}

/** One try: a copy within `limits`, its size as JSON (about: escapes are not counted), and what it cut. */
class FitWalk {
  size = 0;
  private readonly cuts: string[] = [];
  private cutCount = 0;

  constructor(
    private readonly limits: { chars: number; items: number },
    private readonly giveUpAt: number,
  ) {}

  copy(value: unknown, path: string, depth: number): unknown {
    if (this.size > this.giveUpAt) return null;
    if (typeof value === 'string') return this.text(value, path);
    if (value === null || typeof value !== 'object') {
      this.size += value === undefined ? 4 : String(value).length;
      return value;
    }
    if (depth >= MAX_DEPTH) {
      this.cut(path, 'nested too deeply');
      this.size += 4;
      return null;
    }
    if (Array.isArray(value)) {
      const kept = value.slice(0, this.limits.items);
      if (kept.length < value.length) this.cut(path, `${count(kept.length)} of ${count(value.length)} items`);
      this.size += 2 + kept.length;
      return kept.map((item, index) => this.copy(item, `${path}[${index}]`, depth + 1));
    }
    const entries = Object.entries(value).filter(([, child]) => child !== undefined);
    const kept = entries.slice(0, this.limits.items);
    if (kept.length < entries.length) this.cut(path || '(the answer)', `${count(kept.length)} of ${count(entries.length)} fields`);
    this.size += 2;
    const copy: Record<string, unknown> = {};
    for (const [key, child] of kept) {
      const name = key.length > this.limits.chars ? `${key.slice(0, this.limits.chars - 1)}…` : key;
      this.size += name.length + 4;
      copy[name] = this.copy(child, path ? `${path}.${name.slice(0, 40)}` : name.slice(0, 40), depth + 1);
    }
    return copy;
  }

  notes(): string[] {
    const more = this.cutCount - this.cuts.length;
    return more > 0 ? [...this.cuts, `and ${count(more)} more cut${more === 1 ? '' : 's'}`] : this.cuts;
  }

  private text(value: string, path: string): string {
    if (value.length <= this.limits.chars) {
      this.size += value.length + 2;
      return value;
    }
    this.cut(path, `${count(this.limits.chars)} of ${count(value.length)} characters`);
    this.size += this.limits.chars + 2;
    return `${value.slice(0, this.limits.chars - 1)}…`;
  }

  private cut(path: string, what: string): void {
    this.cutCount += 1;
    if (this.cuts.length < NAMED_CUTS) this.cuts.push(`${path || '(the answer)'}: ${what}`);
  }
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
