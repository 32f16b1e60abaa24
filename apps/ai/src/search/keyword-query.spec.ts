import { chooseCorrections, isFormOf, weighTerms } from './keyword-query.js';

describe('chooseCorrections', () => {
  it('should prefer the candidate fewest edits away over the one nearest by trigrams', () => {
    const corrections = chooseCorrections([
      { typed: 'grammer', word: 'gramm', chunkCount: 1, similarity: 0.56 },
      { typed: 'grammer', word: 'grammar', chunkCount: 2, similarity: 0.45 },
      { typed: 'grammer', word: 'gram', chunkCount: 15, similarity: 0.44 },
    ]);
    expect(corrections.get('grammer')).toEqual({ word: 'grammar', count: 2 });
  });

  it('should break ties by similarity, then by how many chunks use the word', () => {
    const corrections = chooseCorrections([
      { typed: 'paymnet', word: 'payments', chunkCount: 50, similarity: 0.4 },
      { typed: 'paymnet', word: 'payment', chunkCount: 40, similarity: 0.5 },
      { typed: 'cardd', word: 'card', chunkCount: 3, similarity: 0.5 },
      { typed: 'cardd', word: 'cards', chunkCount: 9, similarity: 0.5 },
    ]);
    expect(corrections.get('paymnet')).toEqual({ word: 'payment', count: 40 });
    expect(corrections.get('cardd')).toEqual({ word: 'cards', count: 9 });
  });

  it('should prefer a word the typed one becomes with two neighbouring letters swapped back', () => {
    const corrections = chooseCorrections([
      { typed: 'cerdit', word: 'cert', chunkCount: 30, similarity: 0.33 },
      // "produc" is how the index stems "produce": the typed word is more than two edits from it.
      { typed: 'cerdit', word: 'credit', chunkCount: 5, similarity: 0.27, undone: 'swap' },
      { typed: 'prodcu', word: 'produc', chunkCount: 8, similarity: 0.1, undone: 'swap' },
    ]);
    expect(Object.fromEntries(corrections)).toEqual({ cerdit: { word: 'credit', count: 5 }, prodcu: { word: 'produc', count: 8 } });
  });

  it('should prefer a dropped letter put back to trigram neighbours, and a swap to both', () => {
    const corrections = chooseCorrections([
      { typed: 'paymnt', word: 'pay', chunkCount: 90, similarity: 0.4 },
      { typed: 'paymnt', word: 'payment', chunkCount: 40, similarity: 0.3, undone: 'insertion' },
      { typed: 'fomr', word: 'forum', chunkCount: 9, similarity: 0.2, undone: 'insertion' },
      { typed: 'fomr', word: 'form', chunkCount: 3, similarity: 0.2, undone: 'swap' },
    ]);
    expect(Object.fromEntries(corrections)).toEqual({ paymnt: { word: 'payment', count: 40 }, fomr: { word: 'form', count: 3 } });
  });

  it('should correct each typed word on its own', () => {
    expect([...chooseCorrections([]).keys()]).toEqual([]);
    const corrections = chooseCorrections([
      { typed: 'playlsits', word: 'playlist', chunkCount: 7, similarity: 0.4 },
      { typed: 'albmu', word: 'album', chunkCount: 5, similarity: 0.36 },
    ]);
    expect(Object.fromEntries(corrections)).toEqual({ playlsits: { word: 'playlist', count: 7 }, albmu: { word: 'album', count: 5 } });
  });

  it('should accept a dissimilar candidate only when it is a few edits away', () => {
    const corrections = chooseCorrections([
      // Two swapped letters share few trigrams, but are two edits.
      { typed: 'paymnet', word: 'payment', chunkCount: 900, similarity: 0.33 },
      // Neither similar nor near: no correction beats a wrong one.
      { typed: 'zorblax', word: 'zone', chunkCount: 40, similarity: 0.2 },
      // A short word may hold one edit, not two.
      { typed: 'mesg', word: 'mask', chunkCount: 10, similarity: 0.1 },
      { typed: 'accnt', word: 'account', chunkCount: 10, similarity: 0.2 },
    ]);
    expect(Object.fromEntries(corrections)).toEqual({ paymnet: { word: 'payment', count: 900 } });
  });

  it('should prefer a similar candidate to a dissimilar one fewer edits away', () => {
    const corrections = chooseCorrections([
      { typed: 'aloud', word: 'cloud', chunkCount: 90, similarity: 0.33 },
      { typed: 'aloud', word: 'alou', chunkCount: 2, similarity: 0.5 },
    ]);
    expect(corrections.get('aloud')).toEqual({ word: 'alou', count: 2 });
  });
});

describe(isFormOf.name, () => {
  it.each([
    ['neighbour', 'neighbor'],
    ['neighbor', 'neighbour'],
    ['pub/sub', 'pubsub'],
    ['instal', 'install'],
    ['threaten', 'threat'],
    ['rainfal', 'rain'],
  ])('should take %p as a form of %p', (typed, word) => {
    expect(isFormOf(typed, word)).toBe(true);
  });

  it.each([
    ['lead', 'read'],
    ['telemarket', 'evemarket'],
    ['underground', 'under'],
    ['cat', 'categori'],
    ['marina', 'marinad'],
  ])('should not take %p as a form of %p', (typed, word) => {
    expect(isFormOf(typed, word)).toBe(false);
  });
});

describe(weighTerms.name, () => {
  // Rarity weights below: BM25's idf, ln(1 + (chunks − n + 0.5) / (n + 0.5)) for a word in n of the 100 chunks, worked out by hand.
  const facts = {
    words: ['regist', 'user', 'xyzzi'],
    spelling: new Map([
      ['regist', 'english' as const],
      ['user', 'english' as const],
      ['xyzzi', 'unknown' as const],
    ]),
    families: new Map([
      ['regist', ['registr']],
      ['user', []],
      ['xyzzi', []],
    ]),
    equivalentWords: ['signup'],
    frequency: new Map([
      ['regist', 5],
      ['registr', 2],
      ['user', 40],
      ['signup', 3],
    ]),
    chunks: 100,
    corrections: new Map(),
    warnings: [],
  };

  it("should weigh each word by its rarity, a family word never above the typed one, and count an unknown word's share", () => {
    const query = weighTerms(facts)!;
    expect(query.terms.map((term) => [term.lexeme, term.root, term.family ?? false])).toEqual([
      ['regist', 'regist', false],
      ['registr', 'regist', true],
      ['user', 'user', false],
      ['signup', 'signup', true],
    ]);
    // "regist", in 5: ln(1 + 95.5 / 5.5) = ln(18.3636) = 2.9104.
    expect(query.terms[0].weight).toBeCloseTo(2.9104, 4);
    // "registr", in 2, at half weight: 0.5 × ln(1 + 98.5 / 2.5) = 0.5 × ln(40.4) = 1.8494, below the typed word's 2.9104.
    expect(query.terms[1].weight).toBeCloseTo(1.8494, 4);
    // "signup", in 3, at half weight: 0.5 × ln(1 + 97.5 / 3.5) = 0.5 × ln(28.8571) = 1.6812.
    expect(query.terms[3]).toMatchObject({ cover: 0, weight: expect.closeTo(1.6812, 4) });
    // "xyzzi", in none: ln(1 + 100.5 / 0.5) = ln(202) = 5.3083.
    expect(query.unknownWeight).toBeCloseTo(5.3083, 4);
    // "user" is in 40% of the chunks: it adds to scores but makes no candidates.
    expect(query.matchTerms).toEqual(['regist']);
  });

  it('should take a correction for a word the org does not use, and give nothing when no word is known', () => {
    const corrected = weighTerms({ ...facts, corrections: new Map([['xyzzi', { word: 'xyz', count: 1 }]]) })!;
    expect(corrected.terms.find((term) => term.correctedFrom === 'xyzzi')).toMatchObject({ lexeme: 'xyz', root: 'xyzzi', chunkCount: 1 });
    expect(corrected.unknownWeight).toBe(0);
    expect(weighTerms({ ...facts, frequency: new Map() })).toBeUndefined();
  });
});
