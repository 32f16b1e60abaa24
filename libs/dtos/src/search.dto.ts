import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { IsLabels, NoNul, OPERATION_VERB } from '#http';
import { LIFECYCLE_STAGES, type LifecycleStage, SEARCH_LIMITS, SEARCH_MODES, type SearchFilters, type SearchMode, type SearchRequest } from '#contracts';

const FILTERS_MESSAGE = 'filters must be an object';
const LIFECYCLE_MESSAGE = `filters.lifecycle must list stages: ${LIFECYCLE_STAGES.join(', ')}`;
/** A kind's name, as `SpecFormat.kind`: `openapi`, `asyncapi`, `graphql`, `grpc`. */
const KIND_NAME = /^[a-z][a-z0-9-]{0,31}$/;
const inCase =
  (toCase: (text: string) => string) =>
  ({ value }: { value: unknown }) =>
    Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? toCase(item) : item)) : value;

export class SearchFiltersDto implements SearchFilters {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(SEARCH_LIMITS.filterMaxItems.teamNames)
  @IsString({ each: true })
  @MaxLength(SEARCH_LIMITS.teamNameMaxChars, { each: true })
  @NoNul('teamNames', { each: true })
  teamNames?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(SEARCH_LIMITS.filterMaxItems.tags)
  @IsString({ each: true })
  @MaxLength(SEARCH_LIMITS.tagMaxChars, { each: true })
  @NoNul('tags', { each: true })
  tags?: string[];

  /** Verbs of any kind of API: HTTP methods, `PUBLISH`, `QUERY`, `MUTATION`, `RPC`… */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(SEARCH_LIMITS.filterMaxItems.methods)
  @Transform(inCase((text) => text.toUpperCase()))
  @IsString({ each: true })
  @Matches(OPERATION_VERB, { each: true, message: 'methods must be operation verbs of up to 16 letters (GET, POST, PUBLISH, QUERY, MUTATION, RPC…)' })
  methods?: string[];

  /** Kinds of API; which kinds this app knows is checked by `SearchController` (`SPEC_FORMATS`). */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(SEARCH_LIMITS.filterMaxItems.kinds)
  @Transform(inCase((text) => text.toLowerCase()))
  @IsString({ each: true })
  @Matches(KIND_NAME, { each: true, message: 'kinds must be names of API kinds (openapi, asyncapi, graphql, grpc…)' })
  kinds?: string[];

  /** Labels an API must carry, every one; values compared trimmed and in any case (`SearchSnapshot`). */
  @IsOptional()
  @IsLabels('labels')
  labels?: Record<string, string>;

  @IsOptional()
  @IsArray({ message: LIFECYCLE_MESSAGE })
  @ArrayMaxSize(LIFECYCLE_STAGES.length)
  @Transform(inCase((text) => text.toLowerCase()))
  @IsIn(LIFECYCLE_STAGES, { each: true, message: LIFECYCLE_MESSAGE })
  lifecycle?: LifecycleStage[];
}

export class SearchRequestDto implements SearchRequest {
  @IsString({ message: 'query must be a string (empty to browse)' })
  @MaxLength(SEARCH_LIMITS.queryMaxLength)
  @NoNul('query')
  query: string;

  @IsString()
  @MinLength(1)
  orgId: string;

  @IsOptional()
  @IsInt()
  @Min(SEARCH_LIMITS.maxResults.min)
  @Max(SEARCH_LIMITS.maxResults.max)
  maxResults?: number;

  @IsOptional()
  @IsInt()
  @Min(SEARCH_LIMITS.maxEndpoints.min)
  @Max(SEARCH_LIMITS.maxEndpoints.max)
  maxEndpoints?: number;

  // ValidateNested alone takes an array as a list of filters objects (and `[]` as no filters).
  @IsOptional()
  @IsObject({ message: FILTERS_MESSAGE })
  @ValidateNested({ message: FILTERS_MESSAGE })
  @Type(() => SearchFiltersDto)
  filters?: SearchFiltersDto;

  /** Internal, for evaluation: which retrieval to use (default hybrid). */
  @IsOptional()
  @IsIn(SEARCH_MODES)
  mode?: SearchMode;
}
