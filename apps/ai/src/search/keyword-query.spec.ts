import { chooseCorrections } from './keyword-query.js';

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

  it('should correct each typed word on its own', () => {
    expect([...chooseCorrections([]).keys()]).toEqual([]);
    const corrections = chooseCorrections([
      { typed: 'playlsits', word: 'playlist', chunkCount: 7, similarity: 0.4 },
      { typed: 'albmu', word: 'album', chunkCount: 5, similarity: 0.36 },
    ]);
    expect(Object.fromEntries(corrections)).toEqual({ playlsits: { word: 'playlist', count: 7 }, albmu: { word: 'album', count: 5 } });
  });
});
