import pluralize from 'pluralize';
import { splitWords } from './operation-actions.js';

/** An operation, as far as its dependencies go. */
interface Operation {
  method: string;
  path: string;
}

/**
 * How many of a card's best operations get the operation that finds the identifiers they need
 * placed right after them. Measured on RestBench (op-recall@5, TMDB / Spotify): 0.641 / 0.692
 * before; 0.663 / 0.719 for the best operation, 0.663 / 0.743 for the best two, 0.657 / 0.743
 * for three. The public set's op-recall@5 inside the right API stays 0.896 for each.
 */
const DEPENDENT_OPERATIONS = 2;

/** Trailing words of a path parameter that name an identifier rather than the resource. */
const IDENTIFIER_WORDS = new Set(['id', 'ids', 'uid', 'uuid', 'guid', 'sid', 'key', 'pk', 'slug', 'number', 'name', 'code']);

/**
 * The card's operations in ranked order, each of its best two followed by the operations that
 * find the identifiers its path needs, unless one is already above it: `GET /search/person`
 * after `GET /person/{person_id}/movie_credits`, `GET /me/playlists` after
 * `PUT /playlists/{playlist_id}`. The user asked what the second does; they will call the first
 * before it.
 */
export function withProviders<T extends Operation>(ranked: T[]): T[] {
  const ordered = [...ranked];
  for (const dependent of ranked.slice(0, DEPENDENT_OPERATIONS)) {
    let position = ordered.indexOf(dependent);
    for (const resource of requiredResources(dependent.path)) {
      // The best provider; one already above (for an earlier dependent, say) stays where it is.
      const provider = ordered.findIndex((operation) => providedResource(operation) === resource);
      if (provider <= position) continue;
      ordered.splice(++position, 0, ...ordered.splice(provider, 1));
    }
  }
  return ordered;
}

/**
 * The resources whose identifiers a path takes as parameters: `person` for
 * `/person/{person_id}/movie_credits`, `artist` for `/artists/{id}/albums` (a bare identifier
 * names the segment before it), `webhook` for `/webhooks/{webhookId}/logs`, `user` for
 * `/users/{id}.json`. A parameter inside a segment (`/feeds/comments.{format}`) is no identifier.
 */
export function requiredResources(path: string): string[] {
  const segments = path.split('/').filter(Boolean);
  return segments.flatMap((segment, index) => {
    const parameter = /^\{([^}]+)\}/.exec(segment)?.[1];
    if (!parameter) return [];
    const words = splitWords(parameter);
    while (words.length > 0 && IDENTIFIER_WORDS.has(words[words.length - 1])) words.pop();
    const previous = segments[index - 1];
    const resource = words.at(-1) ?? (previous && !previous.startsWith('{') ? previous : undefined);
    return resource ? [singular(resource)] : [];
  });
}

/**
 * The resource a GET operation without path parameters lists or finds, by its last segment:
 * `person` for `GET /search/person`, `playlist` for `GET /me/playlists`. `GET /me` is the
 * caller: it finds the `user` whose identifier `/users/{user_id}/…` needs.
 */
export function providedResource(operation: Operation): string | undefined {
  if (operation.method.toUpperCase() !== 'GET' || operation.path.includes('{')) return undefined;
  // Without a format extension or a query string: `/users.json`, `/users?active=true`.
  const last = operation.path
    .split('/')
    .filter(Boolean)
    .at(-1)
    ?.replace(/[.?].*$/, '');
  if (!last) return undefined;
  const resource = singular(last);
  return resource === 'me' ? 'user' : resource;
}

function singular(word: string): string {
  return pluralize.singular(word.toLowerCase());
}
