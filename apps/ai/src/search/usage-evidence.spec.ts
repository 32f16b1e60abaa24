import type { PastSignal } from '../feedback/feedback.repository.js';
import type { NeedMatching } from '../feedback/need-matching.js';
import { RANKING } from './ranking.config.js';
import { feedbackReason, sameNeed, usageEvidence } from './usage-evidence.js';

const WORDS = ['send', 'passcod', 'phone'];
const QUERY = { words: WORDS, background: 0.3 };
/** A signal for the same need (the same words, a near vector). */
const signal = (overrides: Partial<PastSignal> = {}): PastSignal => ({
  person: 'p1',
  apiId: 'verify',
  method: '',
  path: '',
  helpful: true,
  signal: 'vote',
  lexemes: WORDS,
  similarity: 0.99,
  needBackground: 0.3,
  ageDays: 0,
  ...overrides,
});
/** A fitted matching: a paraphrase is a need whose cosine, less the two backgrounds' mean, is at least 0.25. */
const MATCHING = { model: 'm', version: 'v1', threshold: 0.25, recall: 0.8, paraphrases: true } as NeedMatching;

describe('usageEvidence', () => {
  it('should change nothing without signals', () => {
    expect(usageEvidence([], QUERY, MATCHING, 60)).toEqual({ apis: new Map(), operations: new Map() });
  });

  it('should count a person once per API however often they vote, 1/27 of the way at most', () => {
    const flood = Array.from({ length: 50 }, () => signal({ person: 'flooder', apiId: 'wrong' }));
    const { apis } = usageEvidence(flood, QUERY, MATCHING, 60);
    expect(apis.get('wrong')).toEqual({ helpful: 1, opened: 0, notHelpful: 0, similarity: 0.99, weight: 0.037, moved: 0, reason: '' });
    const two = usageEvidence([signal({ person: 'a' }), signal({ person: 'b' })], QUERY, MATCHING, 60);
    expect(two.apis.get('verify')!.weight).toBeCloseTo(8 / 27, 3);
  });

  it('should move an API all the way with three people, and down with people against it', () => {
    const people = ['a', 'b', 'c'].map((person) => signal({ person }));
    expect(usageEvidence(people, QUERY, MATCHING, 60).apis.get('verify')).toMatchObject({ helpful: 3, weight: 1 });
    const against = ['a', 'b', 'c', 'd'].map((person) => signal({ person, helpful: false }));
    expect(usageEvidence(against, QUERY, MATCHING, 60).apis.get('verify')).toMatchObject({ helpful: 0, notHelpful: 4, weight: -1 });
  });

  it('should count a paraphrase in full and a merely related need not at all, however near its vector', () => {
    const people = (overrides: Partial<PastSignal>) => ['a', 'b', 'c'].map((person) => signal({ ...overrides, person, lexemes: ['text', 'code'] }));
    // cosine 0.6 − mean background 0.3 = 0.3 ≥ 0.25: the same need in other words.
    expect(usageEvidence(people({ similarity: 0.6 }), QUERY, MATCHING, 60).apis.get('verify')).toMatchObject({ helpful: 3, weight: 1 });
    // cosine 0.6 with a need that is near every need (background 0.5): 0.6 − 0.4 < 0.25.
    expect(usageEvidence(people({ similarity: 0.6, needBackground: 0.5 }), QUERY, MATCHING, 60).apis.size).toBe(0);
    expect(usageEvidence(people({ similarity: 0.5 }), QUERY, MATCHING, 60).apis.size).toBe(0);
  });

  it('should count only the same need when the model cannot tell paraphrases, or the signal is not measured under the fit', () => {
    const paraphrase = signal({ similarity: 0.7, lexemes: ['text', 'code'] });
    expect(sameNeed(paraphrase, QUERY, MATCHING)).toBe(true);
    expect(sameNeed(paraphrase, QUERY, { ...MATCHING, paraphrases: false })).toBe(false);
    expect(sameNeed(paraphrase, QUERY, undefined)).toBe(false);
    expect(sameNeed({ ...paraphrase, needBackground: null }, QUERY, MATCHING)).toBe(false);
    // The same words, or a vector as good as the same text, always.
    expect(sameNeed(signal({ similarity: 0.2 }), QUERY, undefined)).toBe(true);
    expect(sameNeed(signal({ lexemes: ['text'], similarity: RANKING.feedback.sameNeedCosine }), { words: WORDS }, undefined)).toBe(true);
  });

  it('should take a need of no direction (NaN similarity) for no match', () => {
    expect(usageEvidence([signal({ similarity: Number.NaN })], QUERY, MATCHING, 60).apis.size).toBe(0);
  });

  it('should halve a signal every half-life and weigh an opened API less than a vote, counted apart', () => {
    // Three people alike, so that the share is the signal's own weight.
    const evidence = (overrides: Partial<PastSignal>) => usageEvidence(['a', 'b', 'c'].map((person) => signal({ ...overrides, person })), QUERY, MATCHING, 60).apis.get('verify')!;
    const share = (overrides: Partial<PastSignal>) => evidence(overrides).weight ** (1 / RANKING.feedback.peopleExponent);
    expect(share({ ageDays: 60 })).toBeCloseTo(share({}) / 2, 2);
    expect(share({ signal: 'opened' })).toBeCloseTo(RANKING.feedback.signalWeights.opened, 2);
    expect(evidence({ signal: 'opened' })).toMatchObject({ helpful: 0, opened: 3 });
  });

  it('should keep each person\'s strongest signal on an API and weigh operations apart', () => {
    const { apis, operations } = usageEvidence(
      [signal({ signal: 'opened', method: 'POST', path: '/verifications' }), signal(), signal({ person: 'p2', method: 'POST', path: '/verifications' })],
      QUERY,
      MATCHING,
      60,
    );
    expect(apis.get('verify')).toMatchObject({ helpful: 2, opened: 0 });
    expect(operations.get('verify')?.get('POST /verifications')).toBeCloseTo(((RANKING.feedback.signalWeights.opened + 1) / 3) ** RANKING.feedback.peopleExponent, 3);
  });
});

describe('feedbackReason', () => {
  const evidence = { helpful: 2, opened: 1, notHelpful: 0, similarity: 0.82, weight: 0.6, moved: 3 };

  it('should say how far a card moved and on whose word, never calling an opened API a vote', () => {
    expect(feedbackReason(evidence, true)).toBe('Up 3 places: 2 people voted it the answer, 1 person opened it after searching for this need (the closest of those searches: similarity 0.82)');
    expect(feedbackReason({ ...evidence, helpful: 0, opened: 0, notHelpful: 1, moved: -1 }, true)).toBe(
      'Down 1 place: 1 person said it was not what they needed for this need (the closest of those searches: similarity 0.82)',
    );
    expect(feedbackReason({ ...evidence, moved: 0 }, true)).toMatch(/^Kept its place: /);
  });

  it('should say that feedback does not lift an API the content does not find relevant', () => {
    expect(feedbackReason(evidence, false)).toMatch(/^Not moved: .* the content does not rank it among the 20 most relevant APIs/);
  });
});
