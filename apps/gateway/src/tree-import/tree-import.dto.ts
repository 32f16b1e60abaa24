import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  registerDecorator,
  ValidateNested,
} from 'class-validator';
import {
  CATALOG_LIMITS,
  type CatalogInfo,
  LIFECYCLE_STAGES,
  type LifecycleStage,
  ORG_ID,
  ORG_ID_MESSAGE,
  REGISTRATION_LIMITS,
  type TreeComponent,
  type TreeImportRequest,
  type TreeItem,
  TREE_IMPORT_LIMITS,
  TREE_NAME,
} from '#contracts';
import { IsLabels } from '#http';
import { KIND } from '../registry/api.dto.js';
import { TextField } from '../common/text-field.js';

const LIFECYCLE_MESSAGE = (field: string) => `${field} must be one of ${LIFECYCLE_STAGES.join(', ')}`;
const PATH = { maxChars: REGISTRATION_LIMITS.sourcePathMaxChars, notBlank: true } as const;
const REF = { maxChars: TREE_IMPORT_LIMITS.keyMaxChars, notBlank: true } as const;

export class CatalogInfoDto implements CatalogInfo {
  @TextField({ ...REF, doc: { example: 'api:default/inventory' } })
  entityRef: string;

  @TextField({ ...REF, presence: 'optional', doc: { example: 'group:default/warehouse-ops' } })
  owner?: string;

  @TextField({ maxChars: CATALOG_LIMITS.nameMaxChars, presence: 'optional', notBlank: true })
  system?: string;

  @ApiPropertyOptional({ type: [String], maxItems: CATALOG_LIMITS.maxTags })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(CATALOG_LIMITS.maxTags)
  @IsString({ each: true })
  @MaxLength(CATALOG_LIMITS.nameMaxChars, { each: true })
  tags?: string[];
}

export class TreeItemDto implements TreeItem {
  @TextField({ ...PATH, doc: { example: 'specs/payments.yaml' } })
  path: string;

  @TextField({ ...PATH, presence: 'optional' })
  file?: string;

  @TextField({ ...REF, doc: { example: 'title:payments api' } })
  key: string;

  @TextField({ maxChars: REGISTRATION_LIMITS.nameMaxChars, notBlank: true })
  name: string;

  @TextField({ maxChars: REGISTRATION_LIMITS.versionMaxChars, notBlank: true })
  version: string;

  @ApiProperty({ pattern: '^[0-9a-f]{64}$' })
  @IsString()
  @Matches(/^[0-9a-f]{64}$/, { message: 'sha256 must be 64 lower-case hex digits' })
  sha256: string;

  @ApiProperty({ minimum: 0 })
  @IsInt()
  @Min(0)
  bytes: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Matches(KIND, { message: 'format must be a format name (GET /api-management/kinds)' })
  format?: string;

  @ApiPropertyOptional({ enum: LIFECYCLE_STAGES })
  @IsOptional()
  @IsIn(LIFECYCLE_STAGES, { message: LIFECYCLE_MESSAGE('lifecycle') })
  lifecycle?: LifecycleStage;

  @TextField({ maxChars: REGISTRATION_LIMITS.teamNameMaxChars, presence: 'optional' })
  teamName?: string;

  @TextField({ maxChars: REGISTRATION_LIMITS.descriptionMaxChars, presence: 'optional' })
  description?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @IsOptional()
  @IsLabels('labels')
  labels?: Record<string, string>;

  @ApiPropertyOptional({ type: CatalogInfoDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => CatalogInfoDto)
  catalog?: CatalogInfoDto;
}

export class TreeComponentDto implements TreeComponent {
  @TextField(REF)
  entityRef: string;

  @TextField(PATH)
  path: string;

  @ApiProperty({ type: [String], maxItems: TREE_IMPORT_LIMITS.maxRefs })
  @IsArray()
  @ArrayMaxSize(TREE_IMPORT_LIMITS.maxRefs)
  @IsString({ each: true })
  @MaxLength(TREE_IMPORT_LIMITS.keyMaxChars, { each: true })
  providesApis: string[];

  @ApiProperty({ type: [String], maxItems: TREE_IMPORT_LIMITS.maxRefs })
  @IsArray()
  @ArrayMaxSize(TREE_IMPORT_LIMITS.maxRefs)
  @IsString({ each: true })
  @MaxLength(TREE_IMPORT_LIMITS.keyMaxChars, { each: true })
  consumesApis: string[];
}

export class TreeFailureDto {
  @TextField(PATH)
  path: string;

  @TextField({ maxChars: 2000 })
  reason: string;
}

/** `specs`: spec texts by item path, at most `maxSpecsPerCall`. */
function IsSpecTexts() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isSpecTexts',
      target: target.constructor,
      propertyName,
      options: { message: `specs must be an object of at most ${TREE_IMPORT_LIMITS.maxSpecsPerCall} item paths, each with its spec's text` },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.keys(value).length <= TREE_IMPORT_LIMITS.maxSpecsPerCall &&
          Object.values(value).every((text) => typeof text === 'string'),
      },
    });
}

export class TreeImportDto implements TreeImportRequest {
  @ApiProperty({ pattern: ORG_ID.source, example: 'payments' })
  @IsString()
  @Matches(ORG_ID, { message: ORG_ID_MESSAGE })
  orgId: string;

  @ApiProperty({ pattern: TREE_NAME.pattern.source, example: 'github.com/acme/specs:payments' })
  @IsString()
  @Matches(TREE_NAME.pattern, { message: `tree must be ${TREE_NAME.rule}` })
  tree: string;

  @ApiProperty({ type: [TreeItemDto], maxItems: TREE_IMPORT_LIMITS.maxItems })
  @IsArray()
  @ArrayMaxSize(TREE_IMPORT_LIMITS.maxItems)
  @ValidateNested({ each: true })
  @Type(() => TreeItemDto)
  items: TreeItemDto[];

  @ApiPropertyOptional({ type: [TreeFailureDto], maxItems: TREE_IMPORT_LIMITS.maxItems })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TREE_IMPORT_LIMITS.maxItems)
  @ValidateNested({ each: true })
  @Type(() => TreeFailureDto)
  failed?: TreeFailureDto[];

  @ApiPropertyOptional({ type: [String], maxItems: TREE_IMPORT_LIMITS.maxItems })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TREE_IMPORT_LIMITS.maxItems)
  @IsString({ each: true })
  @MaxLength(REGISTRATION_LIMITS.sourcePathMaxChars, { each: true })
  skipped?: string[];

  @ApiPropertyOptional({ type: [TreeComponentDto], maxItems: TREE_IMPORT_LIMITS.maxComponents })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TREE_IMPORT_LIMITS.maxComponents)
  @ValidateNested({ each: true })
  @Type(() => TreeComponentDto)
  components?: TreeComponentDto[];

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  prune?: boolean;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  adopt?: boolean;

  @ApiPropertyOptional({ enum: LIFECYCLE_STAGES })
  @IsOptional()
  @IsIn(LIFECYCLE_STAGES, { message: LIFECYCLE_MESSAGE('lifecycle') })
  lifecycle?: LifecycleStage;

  @TextField({ maxChars: REGISTRATION_LIMITS.teamNameMaxChars, presence: 'optional' })
  teamName?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    maxProperties: TREE_IMPORT_LIMITS.maxSpecsPerCall,
    description: 'Spec texts by item path: a plan checks and compares them, an apply writes them',
  })
  @IsOptional()
  @IsSpecTexts()
  specs?: Record<string, string>;

  @ApiPropertyOptional({ minimum: 0, description: "Apply: the tree's generation the caller planned on; another import since is a 409" })
  @IsOptional()
  @IsInt()
  @Min(0)
  generation?: number;
}
