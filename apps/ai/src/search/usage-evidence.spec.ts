import type { PastSignal } from '../feedback/feedback.repository.js';
import type { NeedMatching } from '../feedback/need-matching.js';
import { RANKING } from '../ranking/ranking.config.js';
import { feedbackReason, relationOf, shownOverlap, usageEvidence } from './usage-evidence.js';

const WORDS = ['send', 'passcod', 'phone'];
const QUERY = { words: WORDS, background: 0.3, topApis: ['verify', 'other'] };
/** A signal for the same need (the same words, a near vector). */
const signal = (overrides: Partial<PastSignal> = {}): PastSignal => ({
  person: 'p1',
  apiId: 'verify',
  method: '',
  path: '',
  helpful: true,
  signal: 'vote',
  lexemes: WORDS,
  shown: ['verify', 'other'],
  similarity: 0.99,
  needBackground: 0.3,
  ageDays: 0,
  ...overrides,
});
/** A fitted matching: a paraphrase is a need whose cosine, less the two backgrounds' mean, is at least 0.25. */
const MATCHING = { model: 'm', version: 'v1', threshold: 0.25, recall: 0.8, paraphrases: true } as NeedMatching;

describe('usageEvidence', () => {
  it('should change nothing without signals', () => {
    expect(usageEvidence([], QUERY, MATCHING, 60)).toEqual({ apis: new Map(), paraphraseOnly: new Set(), operations: new Map() });
  });

  it('should count a person once per API however often they vote, 1/27 of the way at most', () => {
    const flood = Array.from({ length: 50 }, () => signal({ person: 'flooder', apiId: 'wrong' }));
    const { apis } = usageEvidence(flood, QUERY, MATCHING, 60);
    expect(apis.get('wrong')).toEqual({ helpful: 1, opened: 0, notHelpful: 0, similarity: 0.99, weight: 0.037, moved: 0, reason: '' });
    const two = usageEvidence([signal({ person: 'a' }), signal({ person: 'b' })], QUERY, MATCHING, 60);
    // (2 people of 3)³ = 8/27 = 0.29629…, shown to 4 decimals.
    expect(two.apis.get('verify')!.weight).toBeCloseTo(0.2963, 4);
  });

  it('should move an API all the way with three people, and down with people against it', () => {
    const people = ['a', 'b', 'c'].map((person) => signal({ person }));
    expect(usageEvidence(people, QUERY, MATCHING, 60).apis.get('verify')).toMatchObject({ helpful: 3, weight: 1 });
    const against = ['a', 'b', 'c', 'd'].map((person) => signal({ person, helpful: false }));
    expect(usageEvidence(against, QUERY, MATCHING, 60).apis.get('verify')).toMatchObject({ helpful: 0, notHelpful: 4, weight: -1 });
  });

  it("should count a paraphrase's votes, marked as such, and a merely related need not at all, however near its vector", () => {
    const people = (overrides: Partial<PastSignal>) => ['a', 'b', 'c'].map((person) => signal({ ...overrides, person, lexemes: ['text', 'code'] }));
    // cosine 0.6 − mean background 0.3 = 0.3 ≥ 0.25: the same need in other words.
    const paraphrase = usageEvidence(people({ similarity: 0.6 }), QUERY, MATCHING, 60);
    expect(paraphrase.apis.get('verify')).toMatchObject({ helpful: 3, weight: 1 });
    expect(paraphrase.paraphraseOnly).toEqual(new Set(['verify']));
    // cosine 0.6 with a need that is near every need (background 0.5): 0.6 − 0.4 < 0.25.
    expect(usageEvidence(people({ similarity: 0.6, needBackground: 0.5 }), QUERY, MATCHING, 60).apis.size).toBe(0);
    expect(usageEvidence(people({ similarity: 0.5 }), QUERY, MATCHING, 60).apis.size).toBe(0);
    // A search that showed none of what the content ranks first for the query was for another need.
    expect(usageEvidence(people({ similarity: 0.6, shown: ['elsewhere'] }), QUERY, MATCHING, 60).apis.size).toBe(0);
  });

  it('should take the votes of the best-matching paraphrase only, and a "not helpful" for the same need only', () => {
    const best = ['a', 'b', 'c'].map((person) => signal({ person, apiId: 'best', lexemes: ['text'], similarity: 0.7 }));
    const weaker = ['d', 'e', 'f'].map((person) => signal({ person, apiId: 'weaker', lexemes: ['text'], similarity: 0.6 }));
    expect([...usageEvidence([...best, ...weaker], QUERY, MATCHING, 60).apis.keys()]).toEqual(['best']);
    const against = ['a', 'b', 'c'].map((person) => signal({ person, helpful: false, lexemes: ['text'], similarity: 0.7 }));
    expect(usageEvidence(against, QUERY, MATCHING, 60).apis.size).toBe(0);
    expect(
      usageEvidence(
        against.map((vote) => ({ ...vote, lexemes: WORDS })),
        QUERY,
        MATCHING,
        60,
      ).apis.get('verify'),
    ).toMatchObject({ notHelpful: 3, weight: -1 });
  });

  it('should count only the same need when the model cannot tell paraphrases, or the signal is not measured under the fit', () => {
    const paraphrase = signal({ similarity: 0.7, lexemes: ['text', 'code'] });
    expect(relationOf(paraphrase, QUERY, MATCHING)).toBe('paraphrase');
    expect(relationOf(paraphrase, QUERY, { ...MATCHING, paraphrases: false })).toBeUndefined();
    expect(relationOf(paraphrase, QUERY, undefined)).toBeUndefined();
    expect(relationOf({ ...paraphrase, needBackground: null }, QUERY, MATCHING)).toBeUndefined();
    // The same words, or a vector as good as the same text, always.
    expect(relationOf(signal({ similarity: 0.2 }), QUERY, undefined)).toBe('same');
    expect(relationOf(signal({ lexemes: ['text'], similarity: RANKING.feedback.sameNeedCosine }), QUERY, undefined)).toBe('same');
  });

  it("should measure what a search showed against the query's first 10", () => {
    expect(shownOverlap(['a', 'b', 'c', 'd'], ['d', 'x', 'a'])).toBe(0.5);
    expect(shownOverlap([], ['a'])).toBe(0);
  });

  it('should take a need of no direction (NaN similarity) for no match', () => {
    expect(usageEvidence([signal({ similarity: Number.NaN })], QUERY, MATCHING, 60).apis.size).toBe(0);
  });

  it('should halve a signal every half-life and weigh an opened API less than a vote, counted apart', () => {
    // Three people alike, so that the share is the signal's own weight.
    const evidence = (overrides: Partial<PastSignal>) =>
      usageEvidence(
        ['a', 'b', 'c'].map((person) => signal({ ...overrides, person })),
        QUERY,
        MATCHING,
        60,
      ).apis.get('verify')!;
    // A fresh vote: 3 × 1 = 3 of 3 → 1³ = 1.
    expect(evidence({}).weight).toBe(1);
    // One half-life old (60 of 60 days): 3 × 0.5 = 1.5 of 3 = 0.5 → 0.5³ = 0.125.
    expect(evidence({ ageDays: 60 }).weight).toBeCloseTo(0.125, 4);
    // Two half-lives: 3 × 0.25 = 0.75 of 3 = 0.25 → 0.25³ = 0.015625, shown as 0.0156.
    expect(evidence({ ageDays: 120 }).weight).toBeCloseTo(0.0156, 4);
    // Opened, not voted: 3 × 0.35 = 1.05 of 3 = 0.35 → 0.35³ = 0.042875, shown as 0.0429.
    expect(evidence({ signal: 'opened' }).weight).toBeCloseTo(0.0429, 4);
    expect(evidence({ signal: 'opened' })).toMatchObject({ helpful: 0, opened: 3 });
  });

  it("should keep each person's strongest signal on an API and weigh operations apart", () => {
    const { apis, operations } = usageEvidence(
      [signal({ signal: 'opened', method: 'POST', path: '/verifications' }), signal(), signal({ person: 'p2', method: 'POST', path: '/verifications' })],
      QUERY,
      MATCHING,
      60,
    );
    expect(apis.get('verify')).toMatchObject({ helpful: 2, opened: 0 });
    // On the operation p1 only opened it (0.35; their vote named no operation), p2 voted (1): 1.35 of 3 = 0.45 → 0.45³ = 0.091125.
    expect(operations.get('verify')?.get('POST /verifications')).toBeCloseTo(0.091125, 6);
  });
});

describe('feedbackReason', () => {
  const evidence = { helpful: 2, opened: 1, notHelpful: 0, similarity: 0.82, weight: 0.6, moved: 3 };

  it('should say how far a card moved and on whose word, never calling an opened API a vote', () => {
    expect(feedbackReason(evidence, false)).toBe('Up 3 places: 2 people voted it the answer, 1 person opened it after searching for this need');
    expect(feedbackReason({ ...evidence, helpful: 0, opened: 0, notHelpful: 1, moved: -1 }, false)).toBe(
      'Down 1 place: 1 person said it was not what they needed for this need',
    );
    expect(feedbackReason({ ...evidence, moved: 0 }, false)).toMatch(/^Kept its place: /);
  });

  it('should say when the votes were for the need in other words, and how far those lift', () => {
    expect(feedbackReason(evidence, true)).toBe(
      'Up 3 places: 2 people voted it the answer, 1 person opened it after searching for this need in other words (similarity 0.82); votes for other words never lift an API above the 3 the content ranks first',
    );
  });
});
