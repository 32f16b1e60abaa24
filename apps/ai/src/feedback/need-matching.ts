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
  return createHash('sha256').update(JSON.stringify([model, set, settings])).digest('hex').slice(0, 16);
}

/**
 * Fits the threshold for one model: every pair of phrasings of one need is a paraphrase pair,
 * every pair of phrasings of two needs is not (of one domain: related, the hard ones). Each
 * phrasing's background leaves out its own need's phrasings and, for a pair, the other need's,
 * as a query's background holds neither its own need nor the signal's. The threshold is the
 * lowest `needMatch` at which at most `falseMatchRate` of the different pairs match; a model at
 * which fewer than `minRecall` of the paraphrase pairs then match is too weak to learn from
 * paraphrases (only the same need counts).
 */
export function fitNeedMatching(model: string, set: CalibrationSet, vectors: readonly (readonly number[])[], settings: NeedMatchingSettings): NeedMatching {
  const phrasings = set.flatMap((domain, domainIndex) => domain.needs.flatMap((need, needIndex) => need.map(() => ({ domain: domainIndex, need: `${domainIndex}/${needIndex}` }))));
  if (phrasings.length !== vectors.length) throw new Error(`need matching: ${vectors.length} vectors for ${phrasings.length} phrasings`);
  const references = vectors.map(normalised);
  const needOf = phrasings.map((phrasing) => phrasing.need);
  const cosines = references.map((a) => references.map((b) => dot(a, b)));
  // Per phrasing, its nearest phrasings of other needs: enough to leave one more need out.
  const longestNeed = Math.max(...set.flatMap((domain) => domain.needs.map((need) => need.length)));
  const nearest = cosines.map((row, index) =>
    row
      .map((cosine, other) => ({ cosine, need: needOf[other] }))
      .filter((other) => other.need !== needOf[index])
      .sort((a, b) => b.cosine - a.cosine)
      .slice(0, settings.neighbours + longestNeed),
  );
  const backgroundWithout = (index: number, otherNeed: string) => {
    const kept = nearest[index].filter((other) => other.need !== otherNeed).slice(0, settings.neighbours);
    return kept.reduce((sum, other) => sum + other.cosine, 0) / Math.max(1, kept.length);
  };
  const same: number[] = [];
  const different: { match: number; sameDomain: boolean }[] = [];
  for (let a = 0; a < references.length; a++) {
    for (let b = a + 1; b < references.length; b++) {
      const isSame = needOf[a] === needOf[b];
      const match = needMatch(cosines[a][b], backgroundWithout(a, needOf[b]), backgroundWithout(b, needOf[a]));
      if (isSame) same.push(match);
      else different.push({ match, sameDomain: phrasings[a].domain === phrasings[b].domain });
    }
  }
  const descending = different.map((pair) => pair.match).sort((x, y) => y - x);
  // Just above the highest match that the allowed share of different pairs may reach.
  const allowed = Math.floor(settings.falseMatchRate * descending.length);
  const threshold = descending[allowed] + 1e-9;
  const rate = (pairs: { match: number }[]) => (pairs.length > 0 ? pairs.filter((pair) => pair.match >= threshold).length / pairs.length : 0);
  const recall = same.filter((match) => match >= threshold).length / same.length;
  const paraphrases = recall >= settings.minRecall;
  return {
    model,
    version: matchingVersion(model, set, settings),
    threshold,
    recall,
    falseMatchRate: rate(different),
    sameDomainFalseMatchRate: rate(different.filter((pair) => pair.sameDomain)),
    pairs: { same: same.length, different: different.length },
    paraphrases,
    ...(paraphrases ? {} : { reason: `at ${settings.falseMatchRate} false matches the model matches only ${recall.toFixed(2)} of paraphrase pairs (below ${settings.minRecall}): votes count for the same need only` }),
    references,
    neighbours: settings.neighbours,
  };
}
