import type { EmbeddingProvider } from '#embeddings';
import type { EmbeddingModelsService } from '../embedding-models/embedding-models.service.js';
import type { FeedbackRepository, UnmeasuredNeed } from './feedback.repository.js';
import { NeedMatchings } from './need-matchings.service.js';

/** A provider whose vectors are made up from each text (what it returns does not matter here, only that it is called and when). */
function model(modelId: string, fail = false): EmbeddingProvider & { calls: number } {
  const provider = {
    modelId,
    dimensions: 16,
    calls: 0,
    embedDocuments: async (texts: string[]) => {
      provider.calls++;
      if (fail) throw new Error('provider down');
      return texts.map((text) =>
        Array.from({ length: 16 }, (_, dimension) => Math.sin(text.length * (dimension + 1)) + (text.charCodeAt(dimension % text.length) % 7)),
      );
    },
    embedQuery: async () => [],
  };
  return provider;
}

describe('NeedMatchings', () => {
  const stored: UnmeasuredNeed[] = [
    { key: { orgId: 'o', person: 'p', searchId: 's', apiId: 'a', method: '', path: '' }, embedding: Array.from({ length: 16 }, (_, i) => (i === 0 ? 1 : 0)) },
  ];
  let measured: { matching: string; count: number }[];
  let matchings: NeedMatchings;
  let serving: EmbeddingProvider;

  beforeEach(() => {
    measured = [];
    const repository = {
      unmeasuredNeeds: async (_model: string, matching: string) => (measured.some((entry) => entry.matching === matching) ? [] : stored),
      measureNeeds: async (matching: string, needs: unknown[]) => void measured.push({ matching, count: needs.length }),
      hasSignals: async () => false,
    } as unknown as FeedbackRepository;
    matchings = new NeedMatchings(repository, { serving: async () => serving } as unknown as EmbeddingModelsService);
  });

  it('should fit each model once, measure the stored needs under the fit, and answer peek without waiting', async () => {
    const first = (serving = model('first'));
    expect(matchings.peek('first')).toBeUndefined();
    const fitted = await matchings.of(first);
    expect(fitted).toMatchObject({ model: 'first', neighbours: 10 });
    expect(await matchings.of(first)).toBe(fitted);
    expect(matchings.peek('first')).toBe(fitted);
    expect(first.calls).toBe(1);
    expect(measured).toEqual([{ matching: fitted.version, count: 1 }]);
    // A model switch: the new model gets its own fit, never the old one's threshold.
    const second = (serving = model('second'));
    const refit = await matchings.of(second);
    expect(refit.model).toBe('second');
    expect(refit.version).not.toBe(fitted.version);
    expect(matchings.peek('first')).toBe(fitted);
  });

  it('should try a failed fit again on the next use, learning from the same need only meanwhile', async () => {
    const down = (serving = model('flaky', true));
    await expect(matchings.of(down)).rejects.toThrow('provider down');
    expect(matchings.peek('flaky')).toBeUndefined();
    const up = model('flaky');
    await expect(matchings.of(up)).resolves.toMatchObject({ model: 'flaky' });
  });
});
