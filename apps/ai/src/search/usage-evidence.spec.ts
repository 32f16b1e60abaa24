import type { PastSignal } from '../feedback/feedback.repository.js';
import { RANKING } from './ranking.config.js';
import { needSimilarity, usageEvidence } from './usage-evidence.js';

const WORDS = ['send', 'passcod', 'phone'];
/** A signal whose need is as close as counts in full (the same words, a near vector). */
const signal = (overrides: Partial<PastSignal> = {}): PastSignal => ({
  person: 'p1',
  apiId: 'verify',
  method: '',
  path: '',
  helpful: true,
  signal: 'vote',
  lexemes: WORDS,
  similarity: 0.95,
  ageDays: 0,
  ...overrides,
});

describe('usageEvidence', () => {
  it('should change nothing without signals', () => {
    expect(usageEvidence([], WORDS, 60)).toEqual({ apis: new Map(), operations: new Map() });
  });

  it('should count a person once per API however often they vote, 1/27 of the way at most', () => {
    const flood = Array.from({ length: 50 }, () => signal({ person: 'flooder', apiId: 'wrong' }));
    const { apis } = usageEvidence(flood, WORDS, 60);
    expect(apis.get('wrong')).toEqual({ helpful: 1, notHelpful: 0, similarity: 0.96, weight: 0.037 });
    const two = usageEvidence([signal({ person: 'a' }), signal({ person: 'b' })], WORDS, 60);
    expect(two.apis.get('verify')!.weight).toBeCloseTo(8 / 27, 3);
  });

  it('should move an API all the way with three people, and down with people against it', () => {
    const people = ['a', 'b', 'c'].map((person) => signal({ person }));
    expect(usageEvidence(people, WORDS, 60).apis.get('verify')).toMatchObject({ helpful: 3, weight: 1 });
    const against = ['a', 'b', 'c', 'd'].map((person) => signal({ person, helpful: false }));
    expect(usageEvidence(against, WORDS, 60).apis.get('verify')).toMatchObject({ helpful: 0, notHelpful: 4, weight: -1 });
  });

  it('should weigh a signal by how similar its need is, ignoring needs below the threshold', () => {
    const unrelated = usageEvidence([signal({ similarity: 0.3, lexemes: ['weather'] })], WORDS, 60);
    expect(unrelated.apis.size).toBe(0);
    const { similarFrom, similarFull } = RANKING.feedback;
    const between = signal({ similarity: 0.4, lexemes: ['send', 'code'] });
    const similarity = needSimilarity(between, new Set(WORDS));
    expect(similarity).toBeGreaterThan(similarFrom);
    expect(similarity).toBeLessThan(similarFull);
    const strength = (similarity - similarFrom) / (similarFull - similarFrom);
    const people = ['a', 'b', 'c'].map((person) => ({ ...between, person }));
    expect(usageEvidence(people, WORDS, 60).apis.get('verify')!.weight).toBeCloseTo(strength ** RANKING.feedback.peopleExponent, 3);
  });

  it('should take a need of no direction (NaN similarity) for no match', () => {
    expect(usageEvidence([signal({ similarity: Number.NaN, lexemes: [] })], WORDS, 60).apis.size).toBe(0);
  });

  it('should halve a signal every half-life and weigh an opened operation less than a vote', () => {
    // Three people alike, so that the share is the signal's own weight.
    const share = (overrides: Partial<PastSignal>) =>
      usageEvidence(['a', 'b', 'c'].map((person) => signal({ ...overrides, person })), WORDS, 60).apis.get('verify')!.weight ** (1 / RANKING.feedback.peopleExponent);
    expect(share({ ageDays: 60 })).toBeCloseTo(share({}) / 2, 2);
    expect(share({ signal: 'opened' })).toBeCloseTo(RANKING.feedback.signalWeights.opened, 2);
  });

  it('should keep each person\'s strongest signal on an API and weigh operations apart', () => {
    const { apis, operations } = usageEvidence(
      [signal({ signal: 'opened', method: 'POST', path: '/verifications' }), signal(), signal({ person: 'p2', method: 'POST', path: '/verifications' })],
      WORDS,
      60,
    );
    expect(apis.get('verify')).toMatchObject({ helpful: 2 });
    expect(operations.get('verify')?.get('POST /verifications')).toBeCloseTo(((RANKING.feedback.signalWeights.opened + 1) / 3) ** RANKING.feedback.peopleExponent, 3);
  });
});
