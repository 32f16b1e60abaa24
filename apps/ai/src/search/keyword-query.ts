import { distance } from 'fastest-levenshtein';
import type { EntityManager } from 'typeorm';
import { isEnglishWord } from './english-words.js';
import { LexiconRepository } from './lexicon.repository.js';
import { RANKING } from '../ranking/ranking.config.js';
import { familyVariants, phraseEquivalents } from './word-families.js';
import { bareWord, isAbbreviation, nameWords } from '../ranking/query-normalizer.js';

/** One query term as full-text search uses it, weighted by how rare it is in the org. */
export interface KeywordTerm {
  /** A word as the index holds it (stemmed, lower case). */
  lexeme: string;
  /** BM25 inverse document frequency over the org's chunks. */
  weight: number;
  /** How many of the org's chunks hold the lexeme. */
  chunkCount: number;
  /** The word the user typed, when this term is a correction of a typo. */
  correctedFrom?: string;
  /**
   * The query word this term stands for (its lexeme): the term's own, or that of the typed word
   * whose family it is of. Scores take each root's best term: a chunk with both "regist" and
   * "registr" counts once.
   */
  root: string;
  /** How much of the query it covers in a chunk that holds it (`termCoverage`): its root's weight; 0 for an equivalent phrase's word. */
  cover: number;
  /**
   * Another word of a query word's family ("registration" beside "registers"), or of an
   * equivalent phrase ("signed up" → "registration"): weighed at `RANKING.wordFamilies.weight`.
   */
  family?: boolean;
}

export interface KeywordQuery {
  terms: KeywordTerm[];
  /** Which chunks are candidates: those with any of these terms (the ones not too common to discriminate). */
  matchTerms: string[];
  /** Whether the query names something the org's specs never mention (a song, a person: data to look up). */
  namesUnknownThing: boolean;
  /** What the limits left out of the query, in words. */
  warnings: string[];
  /**
   * Rarity weight of the query's words that no spec of the org uses (and no typo correction
   * found): the share of the query that no API can cover (see `termCoverage`).
   */
  unknownWeight: number;
}

/**
 * What one query may cost the keyword step (settings SEARCH_MAX_TERMS, SEARCH_MAX_TYPO_WORDS):
 * each typo look-up is a query over the org's lexicon (a misspelt word: ~27 variants per letter
 * through the stemmer, then its nearest words by trigrams).
 */
export interface KeywordLimits {
  /** Distinct words of the query looked up, the first ones. */
  maxTerms: number;
  /** Words the org does not use that are looked up as typos, the first ones. */
  maxTypoWords: number;
}

export const DEFAULT_KEYWORD_LIMITS: KeywordLimits = { maxTerms: 32, maxTypoWords: 5 };

// A term in more than this share of the org's chunks narrows nothing; it still adds to scores.
const COMMON_TERM_SHARE = 0.2;
const MIN_TYPO_LENGTH = 4;
/** Longer than the words people mistype: a 1,000-letter "word" made 26,000 variants and froze the app for 10 s. */
const MAX_TYPO_LENGTH = 30;
/** Letters by which one stem of a word may extend another ("rainfal" → "rain"). */
const MAX_FORM_SUFFIX = 4;
/** A candidate this similar by trigrams, or within `maxEdits` of the typed word, may be its correction. */
const MIN_TYPO_SIMILARITY = 0.35;
/** The org's words nearest to an unknown one (by trigrams) among which the correction is chosen. */
const TYPO_CANDIDATES = 10;

/**
 * Turns a natural-language request into weighted full-text terms: stemmed and without stop
 * words like the index ("english"), each weighted by rarity in the org, and a misspelt word the
 * org's specs never use replaced by the nearest one they do ("paymnet" → "payment"). `names`:
 * the words with which the query as typed names something (see `nameWords`). The lexicon is read
 * in two round trips (see `LexiconRepository`); the terms are weighed from what they return.
 */
export async function buildKeywordQuery(
  manager: EntityManager,
  orgId: string,
  text: string,
  names: Set<string> = nameWords(text),
  limits: KeywordLimits = DEFAULT_KEYWORD_LIMITS,
): Promise<KeywordQuery | undefined> {
  const lexicon = new LexiconRepository(manager);
  const tokens = text.split(/\s+/).filter(Boolean);
  // The words of the phrases the specs may word otherwise ("signed up" → "registration"), stemmed with the query's.
  const stemmed = await lexicon.stem(orgId, [...tokens, ...phraseEquivalents(text)]);
  const [parsed, equivalents] = splitAt(stemmed.tokens, tokens.length);
  const typed = typedWords(parsed, names);
  const warnings: string[] = [];
  const words = [...typed.spelling.keys()];
  if (words.length === 0) return undefined;
  if (words.length > limits.maxTerms) {
    warnings.push(`Only the first ${limits.maxTerms} of the query's ${words.length} distinct words were looked up (SEARCH_MAX_TERMS)`);
    words.length = limits.maxTerms;
  }

  // The words' families and the equivalent phrases' words are counted with the typos' candidates.
  const families = new Map(words.map((word) => [word, familyVariants(word)]));
  const equivalentWords = [...new Set(equivalents.flatMap((entry) => entry.lexemes))].filter((lexeme) => !typed.spelling.has(lexeme) && !lexeme.includes('\\'));
  const counted = new Set(stemmed.tokens.flatMap((token) => token.lexemes));
  const uncounted = [...new Set([...[...families.values()].flat(), ...equivalentWords])].filter((word) => !counted.has(word));

  const mayBeTypo = (word: string) => word.length >= MIN_TYPO_LENGTH && (typed.as.get(word) ?? word).length <= MAX_TYPO_LENGTH;
  let unknown = words.filter((word) => !stemmed.counts.has(word) && mayBeTypo(word) && typed.spelling.get(word) !== 'name');
  if (unknown.length > limits.maxTypoWords) {
    const looked = `Typos were looked for in the first ${limits.maxTypoWords} of the query's ${unknown.length} words`;
    warnings.push(`${looked} the org's specs do not use (SEARCH_MAX_TYPO_WORDS)`);
    unknown = unknown.slice(0, limits.maxTypoWords);
  }
  const misspelt = unknown.filter((word) => typed.spelling.get(word) === 'unknown');
  // A word spelt right may only become another form of itself ("neighbour" → "neighbor").
  const english = unknown.filter((word) => typed.spelling.get(word) === 'english');
  const found = await lexicon.lookUp(orgId, {
    words: uncounted,
    variants: undoneTypos(misspelt.map((word) => ({ word, typed: typed.as.get(word) ?? word }))),
    nearest: { words: misspelt, limit: TYPO_CANDIDATES },
    startingWith: english.map((word) => ({ typed: word, prefix: `${lettersAndDigits(word).slice(0, MIN_TYPO_LENGTH)}%` })),
  });
  const corrections = chooseCorrections([
    // Filtered here, not in SQL: the condition would steer the planner to the partial trigram
    // index, 3 ms a probe where the primary key takes a few µs.
    ...found.undone.filter((row) => /^\p{L}+$/u.test(row.word)),
    ...found.nearest,
    ...found.startingWith.filter((candidate) => isFormOf(candidate.typed, candidate.word)),
  ]);
  const frequency = new Map([...stemmed.counts, ...found.counts]);
  return weighTerms({ words, spelling: typed.spelling, families, equivalentWords, frequency, chunks: stemmed.chunks, corrections, warnings });
}

/** What `weighTerms` weighs: the query's words and what the lexicon said of them. */
interface LexiconFacts {
  /** The query's distinct words (lexemes), the first `maxTerms`. */
  words: string[];
  spelling: Map<string, Spelling>;
  families: Map<string, string[]>;
  equivalentWords: string[];
  /** How many chunks hold each word the org uses, and how many its live index has. */
  frequency: Map<string, number>;
  chunks: number;
  corrections: Map<string, Correction>;
  warnings: string[];
}

/** The query's terms, each weighted by its rarity in the org; none when no word of it is one the org uses. */
export function weighTerms(facts: LexiconFacts): KeywordQuery | undefined {
  const { words, spelling, families, equivalentWords, frequency, chunks: chunkCount, corrections, warnings } = facts;
  const terms: KeywordTerm[] = [];
  let unknownWeight = 0;
  const familyWeight = RANKING.wordFamilies.weight;
  for (const word of words) {
    const known = frequency.get(word);
    const correction = corrections.get(word);
    const relatives = (families.get(word) ?? [])
      .filter((relative) => frequency.has(relative))
      .map((relative) => ({ lexeme: relative, chunkCount: frequency.get(relative)!, weight: idf(frequency.get(relative)!, chunkCount) }));
    if (known !== undefined) {
      const weight = idf(known, chunkCount);
      terms.push({ lexeme: word, weight, chunkCount: known, root: word, cover: weight });
      // Beside the typed form, weaker and never above it: "registers" matches "registration" less than itself.
      for (const relative of relatives) {
        terms.push({ ...relative, weight: Math.min(weight, familyWeight * relative.weight), root: word, cover: weight, family: true });
      }
    } else if (correction) {
      const weight = idf(correction.count, chunkCount);
      terms.push({ lexeme: correction.word, weight, chunkCount: correction.count, correctedFrom: word, root: word, cover: weight });
    } else unknownWeight += idf(0, chunkCount);
  }
  if (terms.length === 0) return undefined;
  for (const lexeme of equivalentWords.filter((word) => frequency.has(word) && !terms.some((term) => term.lexeme === word))) {
    const count = frequency.get(lexeme)!;
    terms.push({ lexeme, weight: familyWeight * idf(count, chunkCount), chunkCount: count, root: lexeme, cover: 0, family: true });
  }

  // What the query's own words find: a word's family adds to scores, it does not make candidates.
  const discriminating = terms.filter((term) => !term.family && term.chunkCount <= COMMON_TERM_SHARE * chunkCount);
  return {
    terms,
    matchTerms: (discriminating.length > 0 ? discriminating : terms.filter((term) => !term.family)).map((term) => term.lexeme),
    namesUnknownThing: words.some((word) => spelling.get(word) === 'name' && !frequency.has(word)),
    warnings,
    unknownWeight,
  };
}

/**
 * How each of the query's words (lexemes) was typed: a name or a word spelt right is no typo
 * ("Taylor" stays, "lead" must not become "read"), and the word as typed, which a typo's variants are made of.
 */
function typedWords(parsed: { token: string; lexemes: string[] }[], names: Set<string>): { spelling: Map<string, Spelling>; as: Map<string, string> } {
  const spelling = new Map<string, Spelling>();
  const as = new Map<string, string>();
  for (const { token, lexemes } of parsed) {
    const kind = spellingOf(token, names);
    for (const lexeme of lexemes.filter((lexeme) => !lexeme.includes('\\'))) {
      spelling.set(lexeme, strictest(kind, spelling.get(lexeme)));
      if (!as.has(lexeme)) as.set(lexeme, bareWord(token));
    }
  }
  return { spelling, as };
}

/**
 * What a typed word is: a name the query uses, English (or a compound of English words:
 * "pen-written"; or shorthand the query spells out beside it: "acct"), or neither.
 */
type Spelling = 'name' | 'english' | 'unknown';

function spellingOf(token: string, names: Set<string>): Spelling {
  const word = bareWord(token);
  if (names.has(word)) return 'name';
  const parts = word
    .replace(/['’]s$/, '')
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
  return parts.length > 0 && parts.every((part) => isEnglishWord(part) || isAbbreviation(part)) ? 'english' : 'unknown';
}

/** When two typed words stem alike, the one that allows fewer corrections decides. */
function strictest(a: Spelling, b: Spelling | undefined): Spelling {
  const order: Spelling[] = ['name', 'english', 'unknown'];
  return b === undefined ? a : order[Math.min(order.indexOf(a), order.indexOf(b))];
}

/**
 * Whether the org's `word` is a form of the `typed` one: the same up to British and American
 * spelling ("neighbour", "neighbor") or a hyphen or slash ("pub/sub", "pubsub"), or a stem the
 * typed word extends by a few letters ("threaten" → "threat"; "rainfal" → "rain"; not
 * "underground" → "under"). Not a longer word that extends the typed one: "marina" is no
 * "marinade".
 */
export function isFormOf(typed: string, word: string): boolean {
  const normal = (text: string) => lettersAndDigits(text).replace(/our/g, 'or').replace(/ll/g, 'l').replace(/z/g, 's');
  const [full, stem] = [normal(typed), normal(word)];
  return full === stem || (stem.length >= MIN_TYPO_LENGTH && full.length - stem.length <= MAX_FORM_SUFFIX && full.startsWith(stem));
}

/** A word without its hyphens, slashes and other punctuation ("pub/sub" → "pubsub"). */
function lettersAndDigits(word: string): string {
  return word.replace(/[^\p{L}\p{N}]+/gu, '');
}

export interface Correction {
  word: string;
  count: number;
}

/** An unknown word the user typed and one of the org's words near it by trigrams. */
export interface CorrectionCandidate {
  typed: string;
  word: string;
  chunkCount: number;
  similarity: number;
  /** The typo undone to reach the org's word exactly (see `undoneTypos`); trusted before trigram neighbours, a swap first. */
  undone?: TypoUndone;
}

type TypoUndone = 'swap' | 'insertion';
const UNDONE_ORDER: (TypoUndone | undefined)[] = ['swap', 'insertion', undefined];

/**
 * Variants of unknown words with one common typo undone, whose stems the lexicon is asked for
 * exactly: two neighbouring letters swapped back ("cerdit" → credit, "usres" → user) or a dropped
 * letter put back ("paymnt" → payment). Such a word shares few trigrams with the typo, so the
 * nearest words seldom hold it (single-word corrections of the eval's words: 51% right with
 * trigrams alone, 71% with swaps, 78% with both; see the README). `words` pairs each unknown
 * lexeme with the word as typed; a variant's `typed` is the lexeme it may correct.
 */
function undoneTypos(words: { word: string; typed: string }[]): { typed: string; variant: string; undone: TypoUndone }[] {
  return words.flatMap(({ word, typed }) => [
    ...swaps(typed).map((variant) => ({ typed: word, variant, undone: 'swap' as TypoUndone })),
    ...insertions(typed).map((variant) => ({ typed: word, variant, undone: 'insertion' as TypoUndone })),
  ]);
}

function swaps(typed: string): string[] {
  return [...typed].slice(1).map((_, index) => typed.slice(0, index) + typed[index + 1] + typed[index] + typed.slice(index + 2));
}

function insertions(typed: string): string[] {
  const letters = [...'abcdefghijklmnopqrstuvwxyz'];
  return [...Array(typed.length + 1).keys()].flatMap((index) => letters.map((letter) => typed.slice(0, index) + letter + typed.slice(index)));
}

/**
 * The correction of each typed word among its candidates (the org's words nearest to it by
 * trigrams): the one fewest edits away, then the most similar, then the most used. Trigrams find
 * candidates fast but rank short stems too high: "grammer" is nearer "gramm" than "grammar".
 * Candidates similar enough by trigrams come first. Only when there are none may a dissimilar
 * one a few edits away stand in: two swapped letters share few trigrams ("paymnet" and
 * "payment": 0.33), while a real word the org doesn't use ("aloud") should not become any word
 * one letter from it ("cloud").
 */
export function chooseCorrections(candidates: CorrectionCandidate[]): Map<string, Correction> {
  const best = new Map<string, ScoredCandidate>();
  for (const candidate of candidates) {
    const similarity = Number(candidate.similarity);
    const edits = distance(candidate.typed, candidate.word);
    const similar = similarity >= MIN_TYPO_SIMILARITY;
    if (!candidate.undone && !similar && edits > maxEdits(candidate.typed)) continue;
    const scored = { ...candidate, chunkCount: Number(candidate.chunkCount), similarity, edits, similar };
    const current = best.get(candidate.typed);
    if (!current || isBetter(scored, current)) best.set(candidate.typed, scored);
  }
  return new Map([...best].map(([typed, { word, chunkCount }]) => [typed, { word, count: chunkCount }]));
}

interface ScoredCandidate extends CorrectionCandidate {
  edits: number;
  similar: boolean;
}

/** Edits a typo of this word may hold: one in a short word, two in a longer one. */
function maxEdits(typed: string): number {
  return typed.length <= 5 ? 1 : 2;
}

function isBetter(a: ScoredCandidate, b: ScoredCandidate): boolean {
  if (a.undone !== b.undone) return UNDONE_ORDER.indexOf(a.undone) < UNDONE_ORDER.indexOf(b.undone);
  if (a.similar !== b.similar) return a.similar;
  if (a.edits !== b.edits) return a.edits < b.edits;
  return a.similarity !== b.similarity ? a.similarity > b.similarity : a.chunkCount > b.chunkCount;
}

function splitAt<T>(items: T[], index: number): [T[], T[]] {
  return [items.slice(0, index), items.slice(index)];
}

/** BM25's inverse document frequency, never negative. */
function idf(chunksWithTerm: number, chunks: number): number {
  return Math.log(1 + (chunks - chunksWithTerm + 0.5) / (chunksWithTerm + 0.5));
}
