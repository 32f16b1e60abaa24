/**
 * The most characters (as JSON) each answer may take, whatever the document behind it holds: what
 * passes is cut, strings short and lists to their first items, and the answer says so (`cuts`, or
 * a search's `warnings`). Far above what real APIs give (the largest demo API's overview is 60 kB).
 */
export const ANSWER_MAX_CHARS = {
  /** `GET …/apis/:apiId/operations`: the API's description, servers and auth schemes… */
  overview: 100_000,
  /** …and its list of up to 5,000 operations. */
  operations: 1_000_000,
  /** `GET …/apis/:apiId/endpoints`: the registered spec's operations. */
  endpoints: 1_000_000,
  /** `POST …/ai/search`: up to 50 cards (a browse: 1,000) of up to 50 endpoints each. */
  search: 2_000_000,
  /** `GET …/operations/detail` beyond its schemas (which OPERATION_DETAIL_MAX_CHARS bounds): parameters, responses, texts. */
  detailBeyondSchemas: 50_000,
  /** An MCP tool's text, which a model reads. */
  mcpText: 25_000,
  /** An MCP tool's `structuredContent`. */
  mcpData: 200_000,
} as const;
