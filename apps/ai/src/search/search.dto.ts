import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { NoNul } from '#http';
import { SEARCH_LIMITS, SEARCH_MODES, type SearchFilters, type SearchMode, type SearchRequest } from '#contracts';

const FILTERS_MESSAGE = 'filters must be an object';
const HTTP_METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'];
const upperCaseAll = ({ value }: { value: unknown }) =>
  Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? item.toUpperCase() : item)) : value;

export class SearchFiltersDto implements SearchFilters {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  @NoNul('teamNames', { each: true })
  teamNames?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  @NoNul('tags', { each: true })
  tags?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(8)
  @Transform(upperCaseAll)
  @IsIn(HTTP_METHODS, { each: true, message: `methods must be HTTP methods (${HTTP_METHODS.join(', ')})` })
  methods?: string[];
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
