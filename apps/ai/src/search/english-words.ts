import { readFileSync } from 'node:fs';
import wordListPath from 'word-list';

let words: Set<string> | undefined;

/** The 275k lower-case English words of the `word-list` package (read once: about 150 ms and 30 MB). */
export function englishWords(): Set<string> {
  words ??= new Set(readFileSync(wordListPath, 'utf8').split('\n'));
  return words;
}

export function isEnglishWord(word: string): boolean {
  return englishWords().has(word);
}
