import {
  type ApiKindInfo,
  CHANGE_REPORT_LIMITS,
  FEEDBACK_LIMITS,
  LABEL_LIMITS,
  labelProblem,
  LIFECYCLE_STAGES,
  LIST_LIMITS,
  MCP_TOOL_LIMITS,
  ORG_ID,
  REGISTRATION_LIMITS,
  SEARCH_LIMITS,
} from '#contracts';
import { OPERATION_VERB } from '#http';
import { z } from 'zod';

/*
 * The tools' inputs, each within the limits of the REST route that takes the same thing (the
 * contracts' named limits), so that a tool accepts what REST accepts and no number is kept twice.
 */

/** Fewer than REST's defaults: every card costs the agent's context. */
export const SEARCH_DEFAULTS = { maxResults: 5, maxEndpoints: 3 } as const;

export const ORG_ID_INPUT = z.string().regex(ORG_ID).describe('The org to look in; may be left out when your token belongs to one org');
export const ID_INPUT = z.string().min(1).max(MCP_TOOL_LIMITS.idMaxChars);
export const API_ID_INPUT = ID_INPUT.describe('The apiId from search_apis, get_api or list_apis');
export const STAGE_INPUT = z.enum(LIFECYCLE_STAGES);
export const VERSION_REF_INPUT = z.string().min(1).max(CHANGE_REPORT_LIMITS.versionRefMaxChars);
export const TEAM_NAME_INPUT = z.string().min(1).max(REGISTRATION_LIMITS.teamNameMaxChars);
export const TAG_INPUT = z.string().min(1).max(SEARCH_LIMITS.tagMaxChars);
export const COUNT_INPUT = ({ min, max }: { min: number; max: number }) => z.number().int().min(min).max(max);
export const LIST_PAGE_INPUT = z.number().int().min(1).max(LIST_LIMITS.maxPage);
export const OPERATION_PAGE_INPUT = z.number().int().min(1).max(MCP_TOOL_LIMITS.operationPagesMax);
export const LABEL_SELECTOR_INPUT = z.string().min(MCP_TOOL_LIMITS.labelSelector.minChars).max(MCP_TOOL_LIMITS.labelSelector.maxChars);
export const OPERATION_ID_INPUT = z.string().min(1).max(MCP_TOOL_LIMITS.operationIdMaxChars);
/** In any case: the tools upper-case a verb before REST's rule applies to it. */
export const VERB_INPUT = z.string().regex(new RegExp(OPERATION_VERB.source, 'i'));
export const OPERATION_PATH_INPUT = z.string().min(1).max(FEEDBACK_LIMITS.operationPathMaxChars);

/** A kind of API this gateway reads (its spec formats), as a tool's input. */
type KindInput = z.ZodEnum<Record<string, string>>;

export function kindInput(kinds: readonly ApiKindInfo[]): KindInput {
  const names = kinds.map((info) => info.kind);
  return z.enum(names as [string, ...string[]]).describe(`A kind of API: ${names.join(', ')}`);
}

/** `SearchFilters` as `search_apis` takes them: REST search's (`SearchFiltersDto`), limit for limit. */
export function searchFiltersInput(kinds: readonly ApiKindInfo[]) {
  const kind = kindInput(kinds);
  const max = SEARCH_LIMITS.filterMaxItems;
  const verbs = [...new Set(kinds.flatMap((info) => info.verbs))].join(', ');
  return z.object({
    teamNames: z.array(TEAM_NAME_INPUT).max(max.teamNames).optional().describe('Only APIs of these teams'),
    tags: z.array(TAG_INPUT).max(max.tags).optional().describe('Only operations with these tags'),
    kinds: z.array(kind).max(max.kinds).optional().describe('Only these kinds of API'),
    methods: z.array(VERB_INPUT).max(max.methods).optional().describe(`Only operations with these verbs: ${verbs}`),
    labels: z
      .record(z.string().regex(LABEL_LIMITS.key), z.string().min(LABEL_LIMITS.valueMinChars).max(LABEL_LIMITS.valueMaxChars), {
        // REST's words for a bad key (which key, and the rule), not zod's "Invalid key in record".
        error: (issue) => (issue.code === 'invalid_key' ? labelProblem(String(issue.input), '') : undefined),
      })
      .optional()
      .describe('Only APIs carrying every one of these labels, e.g. {"tier": "gold"} (keys lower case; values in any case)'),
    lifecycle: z
      .array(STAGE_INPUT)
      .max(LIFECYCLE_STAGES.length)
      .optional()
      .describe('Only APIs whose recommended version is at these stages, e.g. ["production"] (retired APIs never show)'),
  });
}
