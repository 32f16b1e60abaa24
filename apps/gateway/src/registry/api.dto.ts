import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  ValidateIf,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  registerDecorator,
} from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  type ApiDetailsPatch,
  type ApiRegistration,
  type ApiVersionPatch,
  type ApiVersionRegistration,
  CATALOG_LIMITS,
  CHANGE_REPORT_LIMITS,
  LABEL_LIMITS,
  LIFECYCLE_STAGES,
  LIST_LIMITS,
  type LifecycleStage,
  ORG_ID,
  ORG_ID_MESSAGE,
  parseLabelSelector,
  REGISTRATION_LIMITS,
  TREE_NAME,
} from '#contracts';
import { declaredKindNames, declaredKinds } from '#api-specs';
import { IsLabels, NoNul } from '#http';
import { given, present, TextField } from '../common/text-field.js';

const DECLARED_KINDS = declaredKinds();
const DECLARED_KIND_NAMES = declaredKindNames();

/** A spec format's name (a `SpecFormat` kind); which names exist, the formats registered in the app say. */
export const KIND = /^[a-z][a-z0-9-]{0,31}$/;
const KIND_MESSAGE = (field: string) => `${field} must be a format name such as ${DECLARED_KIND_NAMES}`;
/** Examples for the docs: kinds the plugins name, not of this file's choosing. */
const FIRST_KIND = DECLARED_KINDS[0];
const LAST_KIND = DECLARED_KINDS.at(-1);

/** `spec` is a document as an object (OpenAPI, AsyncAPI), or its text (JSON, YAML, GraphQL SDL, .proto). */
function IsSpecInput() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isSpecInput',
      target: target.constructor,
      propertyName,
      options: { message: 'spec must be a JSON object (an OpenAPI or AsyncAPI document) or a non-empty string (JSON, YAML, GraphQL SDL or .proto text)' },
      validator: {
        validate: (value: unknown) =>
          (typeof value === 'string' && value.trim().length > 0) || (typeof value === 'object' && value !== null && !Array.isArray(value)),
      },
    });
}

/** Each `?label=` is `key:value` with a key and value that keep the rules of `LABEL_LIMITS`. */
function IsLabelSelectors() {
  const problem = (value: unknown) => {
    if (!Array.isArray(value)) return 'label must be "key:value"';
    for (const item of value) {
      if (typeof item !== 'string') return 'label must be "key:value"';
      const parsed = parseLabelSelector(item);
      if ('problem' in parsed) return parsed.problem;
    }
    return undefined;
  };
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isLabelSelectors',
      target: target.constructor,
      propertyName,
      validator: { validate: (value: unknown) => problem(value) === undefined, defaultMessage: (args) => problem(args?.value) ?? 'label must be "key:value"' },
    });
}

const LIFECYCLE_MESSAGE = (field: string) => `${field} must be one of ${LIFECYCLE_STAGES.join(', ')}`;
const LIFECYCLE_DOC = {
  enum: LIFECYCLE_STAGES,
  description: "The version's stage: search shows an API's highest production version, never a retired one. Default `production` for a new API or version",
} as const;

/** A version's name, as `version` of a registration: 1-100 characters that are more than spaces, stored trimmed. */
const VersionName = () =>
  TextField({
    maxChars: REGISTRATION_LIMITS.versionMaxChars,
    notBlank: true,
    doc: { example: '2.1.0', description: 'Must hold more than spaces; stored trimmed' },
  });

const LABELS_DOC = {
  type: 'object',
  additionalProperties: { type: 'string', minLength: LABEL_LIMITS.valueMinChars, maxLength: LABEL_LIMITS.valueMaxChars },
  maxProperties: LABEL_LIMITS.maxLabels,
  example: { tier: 'gold', 'cost-center': 'CC-1234' },
  description:
    `The org's own labels, up to ${LABEL_LIMITS.maxLabels}: each key ${LABEL_LIMITS.keyRule} (\`${LABEL_LIMITS.key.source}\`; not ${LABEL_LIMITS.reservedKeys.join(', ')}), ` +
    `each value ${LABEL_LIMITS.valueMinChars}-${LABEL_LIMITS.valueMaxChars} characters without control characters, stored trimmed. ` +
    "On PUT, leaving labels out keeps the API's labels; `{}` clears them",
} as const;

export class ApiBodyDto implements ApiRegistration {
  @ApiProperty({ pattern: ORG_ID.source, example: 'payments' })
  @IsString()
  @Matches(ORG_ID, { message: ORG_ID_MESSAGE })
  orgId: string;

  @TextField({
    maxChars: REGISTRATION_LIMITS.nameMaxChars,
    notBlank: true,
    doc: { example: 'Payments API', description: 'Must hold more than spaces; stored trimmed' },
  })
  name: string;

  @VersionName()
  version: string;

  @TextField({
    maxChars: REGISTRATION_LIMITS.teamNameMaxChars,
    presence: 'optional',
    doc: { example: 'checkout', description: 'Stored trimmed; blank means none' },
  })
  teamName?: string;

  @TextField({ maxChars: REGISTRATION_LIMITS.descriptionMaxChars, presence: 'optional', doc: { description: 'Stored trimmed; blank means none' } })
  description?: string;

  @ApiPropertyOptional(LABELS_DOC)
  @IsOptional()
  @IsLabels('labels')
  labels?: Record<string, string>;

  @ApiProperty({
    description: `The spec (up to SPEC_MAX_BYTES), of any kind this platform reads (${DECLARED_KINDS.map((known) => known.label).join('; ')}): a JSON or YAML document as an object or its text, or a document's text in its own syntax`,
    oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }],
  })
  @IsDefined({ message: 'spec is required' })
  @IsSpecInput()
  spec: string | Record<string, unknown>;

  @ApiPropertyOptional({
    example: LAST_KIND?.kind,
    description: `The spec's format: ${DECLARED_KIND_NAMES} (\`GET /api-management/kinds\`). Detected when absent`,
  })
  @IsOptional()
  @IsString()
  @Matches(KIND, { message: KIND_MESSAGE('format') })
  format?: string;

  @ApiPropertyOptional(LIFECYCLE_DOC)
  @IsOptional()
  @IsIn(LIFECYCLE_STAGES, { message: LIFECYCLE_MESSAGE('lifecycle') })
  lifecycle?: LifecycleStage;

  @ApiPropertyOptional({ description: 'Retire a version that consumers use (without it that is a 409 naming them)' })
  @IsOptional()
  @IsBoolean({ message: 'force must be true or false' })
  force?: boolean;
}

/**
 * `PATCH /api-management/apis/:apiId`: the API's own details and its recommended version's stage,
 * without its spec (a `spec`, `version` or `orgId` here is refused as an unknown field).
 */
export class ApiDetailsPatchDto implements ApiDetailsPatch {
  @TextField({
    maxChars: REGISTRATION_LIMITS.nameMaxChars,
    presence: 'patch',
    notBlank: true,
    doc: { example: 'Payments API', description: 'A new name, unique in the org in any case (409 otherwise); stored trimmed' },
  })
  name?: string;

  @TextField({
    maxChars: REGISTRATION_LIMITS.teamNameMaxChars,
    presence: 'clearable',
    doc: { example: 'checkout', description: 'Stored trimmed; `null` or blank clears it' },
  })
  teamName?: string | null;

  @TextField({ maxChars: REGISTRATION_LIMITS.descriptionMaxChars, presence: 'clearable', doc: { description: 'Stored trimmed; `null` or blank clears it' } })
  description?: string | null;

  @ApiPropertyOptional({
    ...LABELS_DOC,
    nullable: true,
    description: `${LABELS_DOC.description.replace(/ On PUT.*$/, '')} They replace the API's labels; \`{}\` or \`null\` clears them`,
  })
  @ValidateIf(given)
  @IsLabels('labels')
  labels?: Record<string, string> | null;

  @ApiPropertyOptional({
    enum: LIFECYCLE_STAGES,
    description: "The recommended version's stage, as `PATCH …/versions/{version}` sets it (leaving deprecation clears its sunset date)",
  })
  @ValidateIf(present)
  @IsIn(LIFECYCLE_STAGES, { message: LIFECYCLE_MESSAGE('lifecycle') })
  lifecycle?: LifecycleStage;

  @ApiPropertyOptional({ description: 'Retire a version that consumers use (without it that is a 409 naming them)' })
  @IsOptional()
  @IsBoolean({ message: 'force must be true or false' })
  force?: boolean;
}

export class ListApisQueryDto {
  @ApiPropertyOptional({ description: "One of the caller's orgs; all of them when absent" })
  @IsOptional()
  @IsString()
  @Matches(ORG_ID, { message: ORG_ID_MESSAGE })
  orgId?: string;

  @TextField({ maxChars: REGISTRATION_LIMITS.teamNameMaxChars, presence: 'optional' })
  teamName?: string;

  @ApiPropertyOptional({ example: FIRST_KIND?.kind, description: `Only APIs of this kind: ${DECLARED_KIND_NAMES}` })
  @IsOptional()
  @IsString()
  @Matches(KIND, { message: KIND_MESSAGE('kind') })
  kind?: string;

  @ApiPropertyOptional({
    type: [String],
    example: ['tier:gold'],
    description: `Only APIs with this label, as \`key:value\` (repeat it: every one must match; the value in any case); at most ${LABEL_LIMITS.maxLabels}`,
  })
  @IsOptional()
  // One `?label=` is a string, several an array.
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value))
  @IsArray({ message: 'label must be "key:value" (repeat label=… for several)' })
  @ArrayMaxSize(LABEL_LIMITS.maxLabels, { message: `at most ${LABEL_LIMITS.maxLabels} label filters` })
  @IsLabelSelectors()
  label?: string[];

  @ApiPropertyOptional({ type: [String], enum: LIFECYCLE_STAGES, description: 'Only APIs whose recommended version is at one of these stages (repeat it)' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value))
  @IsArray({ message: LIFECYCLE_MESSAGE('lifecycle') })
  @ArrayMaxSize(LIFECYCLE_STAGES.length)
  @IsIn(LIFECYCLE_STAGES, { each: true, message: LIFECYCLE_MESSAGE('lifecycle') })
  lifecycle?: LifecycleStage[];

  @ApiPropertyOptional({ pattern: TREE_NAME.pattern.source, description: 'Only APIs a folder import registered from this tree (`source.tree`); with `orgId`' })
  @IsOptional()
  @IsString()
  @Matches(TREE_NAME.pattern, { message: `sourceTree must be ${TREE_NAME.rule}` })
  sourceTree?: string;

  @ApiPropertyOptional({ description: 'Only APIs of this Backstage system (`catalog.system`, as given)' })
  @IsOptional()
  @IsString()
  @MaxLength(CATALOG_LIMITS.nameMaxChars)
  system?: string;

  @ApiPropertyOptional({ type: [String], description: 'Only APIs with every one of these Backstage tags (`catalog.tags`); repeat it' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? value : [value]))
  @IsString({ each: true })
  @MaxLength(CATALOG_LIMITS.nameMaxChars, { each: true })
  @ArrayMaxSize(CATALOG_LIMITS.maxTags)
  tag?: string[];

  @ApiPropertyOptional({ minimum: 1, maximum: LIST_LIMITS.maxPage, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(LIST_LIMITS.maxPage)
  page: number = 1;

  @ApiPropertyOptional({ minimum: LIST_LIMITS.pageSize.min, maximum: LIST_LIMITS.pageSize.max, default: LIST_LIMITS.pageSize.default })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(LIST_LIMITS.pageSize.min)
  @Max(LIST_LIMITS.pageSize.max)
  pageSize: number = LIST_LIMITS.pageSize.default;
}

/** The spec of a version: as `spec` and `format` of a registration. */
export class VersionSpecDto implements Pick<ApiVersionRegistration, 'spec' | 'format'> {
  @ApiProperty({ description: 'The spec, as for `POST /api-management/apis`', oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }] })
  @IsDefined({ message: 'spec is required' })
  @IsSpecInput()
  spec: string | Record<string, unknown>;

  @ApiPropertyOptional({ example: LAST_KIND?.kind, description: `The spec's format: ${DECLARED_KIND_NAMES}. Detected when absent` })
  @IsOptional()
  @IsString()
  @Matches(KIND, { message: KIND_MESSAGE('format') })
  format?: string;
}

export class VersionBodyDto extends VersionSpecDto implements ApiVersionRegistration {
  @VersionName()
  version: string;

  @ApiPropertyOptional(LIFECYCLE_DOC)
  @IsOptional()
  @IsIn(LIFECYCLE_STAGES, { message: LIFECYCLE_MESSAGE('lifecycle') })
  lifecycle?: LifecycleStage;
}

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export class VersionPatchDto implements ApiVersionPatch {
  @ApiPropertyOptional(LIFECYCLE_DOC)
  @IsOptional()
  @IsIn(LIFECYCLE_STAGES, { message: LIFECYCLE_MESSAGE('lifecycle') })
  lifecycle?: LifecycleStage;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '2027-06-30',
    description:
      'The day a deprecated version goes, `YYYY-MM-DD`; `null` clears it. Only a deprecated version has one: a version that leaves deprecation (retired included) loses it, and a date for any other stage is a 400',
  })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @IsString()
  @Matches(DATE, { message: 'sunsetDate must be a date as YYYY-MM-DD' })
  sunsetDate?: string | null;

  @ApiPropertyOptional({ description: 'Retire a version that consumers use; without it that is a 409 naming them' })
  @IsOptional()
  @IsBoolean({ message: 'force must be true or false' })
  force?: boolean;
}

/**
 * `?force=true` (or a body `{ "force": true }`) on a DELETE: delete what consumers use; without
 * it that is a 409 naming them.
 */
export class ForceQueryDto {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'false',
    description: 'true: delete it although consumers use it (without: a 409 naming them); they are told',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'force must be true or false' })
  force?: 'true' | 'false';
}

/** A DELETE's optional body (`ForceQueryDto`). */
export class ForceBodyDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean({ message: 'force must be true or false' })
  force?: boolean;
}

/** `?version=` on the routes that act on the recommended version without it. */
export class VersionQueryDto {
  @ApiPropertyOptional({ maxLength: REGISTRATION_LIMITS.versionMaxChars, description: 'A version of the API; its recommended version when absent' })
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'version must not be empty' })
  @MaxLength(REGISTRATION_LIMITS.versionMaxChars)
  @NoNul('version')
  version?: string;
}

export class SpecQueryDto extends VersionQueryDto {
  @ApiPropertyOptional({ enum: ['true', 'false'], default: 'false', description: 'true: as an attachment named `<name>-<version>.<json|yaml|graphql|proto>`' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'download must be true or false' })
  download?: 'true' | 'false';
}

/** `version`, or `version@revision` for a kept revision of it. */
const VERSION_REF_DOC = 'A version (its current revision), or `version@revision` for one of its kept revisions';

export class ChangesQueryDto {
  @ApiProperty({ maxLength: CHANGE_REPORT_LIMITS.versionRefMaxChars, example: '1.0.0', description: VERSION_REF_DOC })
  @IsString({ message: 'from is required: a version, or version@revision' })
  @IsNotEmpty({ message: 'from is required: a version, or version@revision' })
  @MaxLength(CHANGE_REPORT_LIMITS.versionRefMaxChars)
  @NoNul('from')
  from: string;

  @ApiPropertyOptional({
    maxLength: CHANGE_REPORT_LIMITS.versionRefMaxChars,
    example: '2.0.0',
    description: `${VERSION_REF_DOC}; the recommended version when absent`,
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'to must not be empty' })
  @MaxLength(CHANGE_REPORT_LIMITS.versionRefMaxChars)
  @NoNul('to')
  to?: string;
}

export class LintQueryDto {
  @ApiPropertyOptional({ minimum: 1, description: 'A kept revision of the version; its current one when absent' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'revision must be a whole number' })
  @Min(1)
  @Max(2_147_483_647)
  revision?: number;
}
