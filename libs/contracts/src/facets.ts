/** How many APIs carry one team name, tag or kind; spellings that differ only in case count as one. */
export interface FacetCount {
  /** The spelling most of these APIs use. */
  name: string;
  apiCount: number;
}

/**
 * `GET /api-management/ai/facets?orgId=`: the teams, operation tags and kinds of the org's indexed
 * APIs, most used first (up to `FACET_LIMIT` each), for suggestions in the search filters.
 */
export interface SearchFacets {
  teams: FacetCount[];
  tags: FacetCount[];
  /** Kinds of API (`openapi`, `asyncapi`, `graphql`, `grpc`), as search's `kinds` filter takes them. */
  kinds: FacetCount[];
}

/** The most values a facet lists. */
export const FACET_LIMIT = 200;

/** What the gateway sends the AI app once it has authorised the caller for these orgs. */
export interface InternalFacetsRequest {
  orgIds: string[];
}
