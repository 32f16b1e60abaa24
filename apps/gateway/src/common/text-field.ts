import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { NoNul, NotBlank } from '#http';

/**
 * Whether a text field must be given: `required`; `optional` (may be left out); `patch` (may be
 * left out, never `null`); `clearable` (may be left out, and `null` clears it).
 */
export type TextPresence = 'required' | 'optional' | 'patch' | 'clearable';

export interface TextFieldOptions {
  maxChars: number;
  presence?: TextPresence;
  /** Refuses a value of spaces only. */
  notBlank?: boolean;
  /** The field's name in messages when not the property's (`source.path`). */
  label?: string;
  /** What the document says besides the type and the limit. */
  doc?: Omit<ApiPropertyOptions, 'maxLength'>;
}

/** Present, `null` included: `ValidateIf` lets only `undefined` (left out) pass unchecked. */
export const present = (_: object, value: unknown) => value !== undefined;
/** Present and not `null` (which clears the field). */
export const given = (_: object, value: unknown) => value !== undefined && value !== null;

/**
 * A text field of a request, declared once: its document (type, limit, whether required), and the
 * checks that enforce the same (a string, not blank where asked, at most `maxChars`, no NUL).
 */
export function TextField({ maxChars, presence = 'required', notBlank = false, label, doc = {} }: TextFieldOptions): PropertyDecorator {
  return (target, key) => {
    const field = label ?? String(key);
    const documented = presence === 'required' ? ApiProperty : ApiPropertyOptional;
    const decorators: PropertyDecorator[] = [
      documented({ maxLength: maxChars, ...(presence === 'clearable' ? { type: String, nullable: true } : {}), ...doc } as ApiPropertyOptions),
      ...(presence === 'optional' ? [IsOptional()] : presence === 'patch' ? [ValidateIf(present)] : presence === 'clearable' ? [ValidateIf(given)] : []),
      IsString(),
      ...(notBlank ? [NotBlank(field)] : []),
      MaxLength(maxChars),
      NoNul(field),
    ];
    // Last first, as decorators written one above the other apply: the checks keep their order.
    for (const decorate of decorators.reverse()) decorate(target, key);
  };
}
