import { createHash } from 'node:crypto';

/**
 * When a later query expresses the same need as the one a signal was given for: the two needs'
 * cosine, less how close each of them is to needs in general (the mean cosine of its nearest
 * reference needs, `background`). A raw cosine cannot tell: with the local model a paraphrase is
 * at 0.49–0.70 of its need (p10–p75) and the nearest *other* need often as close, since generic
 * wording ("I need an API to…") brings every need near every other. Taking off each side's
 * background (a hubness correction, as CSLS does for word translation) leaves what the two share
 * beyond that. The threshold is fitted per model on labelled pairs (`fitNeedMatching`).
 */
export function needMatch(cosine: number, queryBackground: number, needBackground: number): number {
  return cosine - (queryBackground + needBackground) / 2;
}

/** Unit length, so that a dot product is the cosine; a vector of no direction stays zero. */
export function normalised(vector: readonly number[]): Float32Array {
  const length = Math.hypot(...vector);
  return Float32Array.from(vector, (value) => (length > 0 ? value / length : 0));
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += a[index] * b[index];
  return sum;
}

/** Mean cosine of `vector` (unit length) to its `neighbours` nearest references, leaving out those `skip` names. */
export function backgroundOf(vector: Float32Array, references: readonly Float32Array[], neighbours: number, skip?: (index: number) => boolean): number {
  const nearest: number[] = [];
  references.forEach((reference, index) => {
    if (skip?.(index)) return;
    const cosine = dot(vector, reference);
    if (nearest.length < neighbours) {
      nearest.push(cosine);
      nearest.sort((a, b) => a - b);
    } else if (cosine > nearest[0]) {
      nearest[0] = cosine;
      nearest.sort((a, b) => a - b);
    }
  });
  return nearest.length > 0 ? nearest.reduce((sum, cosine) => sum + cosine, 0) / nearest.length : 0;
}

/** The labelled needs a fit reads: per domain, needs, each in several phrasings (see `NEED_CALIBRATION_SET`). */
export type CalibrationSet = readonly { domain: string; needs: readonly (readonly string[])[] }[];

/** A model's fitted need matching, as `FeedbackLearning` applies it and the feedback report shows it. */
export interface NeedMatching {
  model: string;
  /** Of the model, the set and the settings: signals store it beside their need's background. */
  version: string;
  /** A query matches a signal's need from this `needMatch` on. */
  threshold: number;
  /** Share of the set's paraphrase pairs that match. */
  recall: number;
  /** Share of pairs of different needs that match: all of them, and those of one domain. */
  falseMatchRate: number;
  sameDomainFalseMatchRate: number;
  pairs: { same: number; different: number };
  /** Whether paraphrases count: false when the model cannot tell them apart well enough (`reason`); the same need always counts. */
  paraphrases: boolean;
  reason?: string;
  /** The set's phrasings, unit length: the needs in general that backgrounds are measured against. */
  references: Float32Array[];
  neighbours: number;
}

export interface NeedMatchingSettings {
  neighbours: number;
  falseMatchRate: number;
  minRecall: number;
}

/** What identifies a fit: the model, every phrasing of the set and the settings. */
export function matchingVersion(model: string, set: CalibrationSet, settings: NeedMatchingSettings): string {
  return createHash('sha256')
    .update(JSON.stringify([model, set, settings]))
    .digest('hex')
    .slice(0, 16);
}

/** Lets other work of the event loop run: a fit takes a few hundred milliseconds of CPU. */
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Fits the threshold for one model: every pair of phrasings of one need is a paraphrase pair,
 * every pair of phrasings of two needs is not (of one domain: related, the hard ones). Each
 * phrasing's background leaves out its own need's phrasings and, for a pair, the other need's,
 * as a query's background holds neither its own need nor the signal's. The threshold is the
 * lowest `needMatch` at which at most `falseMatchRate` of the different pairs match; a model at
 * which fewer than `minRecall` of the paraphrase pairs then match is too weak to learn from
 * paraphrases (only the same need counts). It pauses between rows, so searches of the process go
 * on while it runs.
 */
export async function fitNeedMatching(
  model: string,
  set: CalibrationSet,
  vectors: readonly (readonly number[])[],
  settings: NeedMatchingSettings,
): Promise<NeedMatching> {
  const domainOf = set.flatMap((domain, domainIndex) => domain.needs.flatMap((need) => need.map(() => domainIndex)));
  if (domainOf.length !== vectors.length) throw new Error(`need matching: ${vectors.length} vectors for ${domainOf.length} phrasings`);
  const references = vectors.map(normalised);
  const phrasings: Phrasings = { count: vectors.length, needOf: needsOf(set, vectors.length), domainOf, cosines: await cosineMatrix(references) };
  const backgrounds = await backgroundsOf(phrasings, set, settings.neighbours);
  const matches = await pairMatches(phrasings, backgrounds);
  const fit = thresholdFor(matches, settings);
  return {
    model,
    version: matchingVersion(model, set, settings),
    ...fit,
    ...(fit.paraphrases
      ? {}
      : {
          reason: `at ${settings.falseMatchRate} false matches the model matches only ${fit.recall.toFixed(2)} of paraphrase pairs (below ${settings.minRecall}): votes count for the same need only`,
        }),
    references,
    neighbours: settings.neighbours,
  };
}

/** The set's phrasings in a row: each one's need and domain as numbers, and every pair's cosine (`a * count + b`). */
interface Phrasings {
  count: number;
  needOf: Int32Array;
  domainOf: number[];
  cosines: Float64Array;
}

function needsOf(set: CalibrationSet, count: number): Int32Array {
  const needOf = new Int32Array(count);
  let need = 0;
  let index = 0;
  for (const domain of set) for (const phrasings of domain.needs) needOf.fill(need++, index, (index += phrasings.length));
  return needOf;
}

async function cosineMatrix(references: Float32Array[]): Promise<Float64Array> {
  const count = references.length;
  const cosines = new Float64Array(count * count);
  for (let a = 0; a < count; a++) {
    for (let b = a; b < count; b++) cosines[a * count + b] = cosines[b * count + a] = dot(references[a], references[b]);
    if (a % 16 === 15) await pause();
  }
  return cosines;
}

/** Each phrasing's background, and the same without another need's phrasings (for a pair, whose two needs both stay out). */
async function backgroundsOf({ count, needOf, cosines }: Phrasings, set: CalibrationSet, neighbours: number) {
  // Per phrasing, its nearest phrasings of other needs: enough to leave one more need out.
  const longestNeed = Math.max(...set.flatMap((domain) => domain.needs.map((phrasings) => phrasings.length)));
  const nearest: number[][] = [];
  const background = new Float64Array(count);
  for (let a = 0; a < count; a++) {
    const others: number[] = [];
    for (let b = 0; b < count; b++) if (needOf[b] !== needOf[a]) others.push(b);
    others.sort((x, y) => cosines[a * count + y] - cosines[a * count + x]);
    nearest.push(others.slice(0, neighbours + longestNeed));
    background[a] = meanCosine(cosines, count, a, nearest[a], -1, neighbours);
    if (a % 16 === 15) await pause();
  }
  // The same unless that need is among its nearest.
  return (a: number, otherNeed: number): number => {
    for (let k = 0; k < neighbours && k < nearest[a].length; k++) {
      if (needOf[nearest[a][k]] === otherNeed) return meanCosine(cosines, count, a, nearest[a], otherNeed, neighbours, needOf);
    }
    return background[a];
  };
}

/** Every pair's `needMatch`: of one need (paraphrases), or of two (`different`, with whether they share a domain). */
async function pairMatches({ count, needOf, domainOf, cosines }: Phrasings, backgroundWithout: (a: number, otherNeed: number) => number) {
  const same: number[] = [];
  const different = new Float64Array((count * (count - 1)) / 2);
  const sameDomain = new Uint8Array(different.length);
  let pairs = 0;
  for (let a = 0; a < count; a++) {
    for (let b = a + 1; b < count; b++) {
      const match = needMatch(cosines[a * count + b], backgroundWithout(a, needOf[b]), backgroundWithout(b, needOf[a]));
      if (needOf[a] === needOf[b]) same.push(match);
      else {
        sameDomain[pairs] = domainOf[a] === domainOf[b] ? 1 : 0;
        different[pairs++] = match;
      }
    }
    if (a % 16 === 15) await pause();
  }
  return { same, different: different.subarray(0, pairs), sameDomain: sameDomain.subarray(0, pairs) };
}

/** The lowest match at which at most `falseMatchRate` of the different pairs match, and what it lets through. */
function thresholdFor({ same, different, sameDomain }: Awaited<ReturnType<typeof pairMatches>>, settings: NeedMatchingSettings) {
  const pairs = different.length;
  const descending = Float64Array.from(different).sort().reverse();
  // Just above the highest match that the allowed share of different pairs may reach.
  const threshold = descending[Math.floor(settings.falseMatchRate * pairs)] + 1e-9;
  let falseMatches = 0;
  let sameDomainPairs = 0;
  let sameDomainMatches = 0;
  different.forEach((match, index) => {
    if (match >= threshold) falseMatches++;
    if (sameDomain[index]) {
      sameDomainPairs++;
      if (match >= threshold) sameDomainMatches++;
    }
  });
  const recall = same.filter((match) => match >= threshold).length / same.length;
  return {
    threshold,
    recall,
    falseMatchRate: falseMatches / pairs,
    sameDomainFalseMatchRate: sameDomainPairs > 0 ? sameDomainMatches / sameDomainPairs : 0,
    pairs: { same: same.length, different: pairs },
    paraphrases: recall >= settings.minRecall,
  };
}

/** Mean cosine of phrasing `a` to its first `neighbours` of `nearest`, leaving out those of need `skipNeed`. */
function meanCosine(cosines: Float64Array, count: number, a: number, nearest: number[], skipNeed: number, neighbours: number, needOf?: Int32Array): number {
  let sum = 0;
  let taken = 0;
  for (const b of nearest) {
    if (taken === neighbours) break;
    if (needOf && needOf[b] === skipNeed) continue;
    sum += cosines[a * count + b];
    taken++;
  }
  return taken > 0 ? sum / taken : 0;
}
