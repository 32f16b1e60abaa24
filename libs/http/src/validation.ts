import { BadRequestException, ValidationPipe } from '@nestjs/common';
import { Matches, registerDecorator, type ValidationError } from 'class-validator';
import { LABEL_LIMITS, labelsProblem } from '#contracts';

/**
 * PostgreSQL text cannot hold NUL: refuse it with a 400 rather than fail the query with a 500.
 * `each` checks every item of an array.
 */
export const NoNul = (field: string, { each = false } = {}) => Matches(/^[^\u0000]*$/, { each, message: `${field} must not contain NUL characters` });

/** Text that must hold more than spaces: it is stored trimmed, and an empty name or version names nothing. */
export const NotBlank = (field: string) => Matches(/\S/, { message: `${field} must not be blank` });

/** Labels by the registry's rules (`LABEL_LIMITS`), `field` being what the request calls them; the message names the label at fault. */
export function IsLabels(field: string) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isLabels',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => labelsProblem(value, field) === undefined,
        defaultMessage: (args) => labelsProblem(args?.value, field) ?? `${field} are invalid`,
      },
    });
}

/** Constraints on a value's kind: when one fails, the others (length, range, pattern) say nothing useful. */
const KIND_CONSTRAINTS = new Set(['isDefined', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject', 'nestedValidation']);

/**
 * Both apps' request validation: unknown fields refused, values converted to their declared
 * types, a field left out reported as "name is required" (not "name must be a string"), and a
 * value of the wrong kind reported as that alone ("maxResults must be an integer number", not
 * also "must not be greater than 50" and "must not be less than 1"; "filters must be an object",
 * not also what is wrong inside the array sent instead). Each message once.
 */
export class RequestValidationPipe extends ValidationPipe {
  constructor() {
    super({ whitelist: true, forbidNonWhitelisted: true, transform: true });
  }

  protected override flattenValidationErrors(errors: ValidationError[]): string[] {
    return [...new Set(super.flattenValidationErrors(errors.map(plainFirst)))];
  }

  /**
   * Nest deletes every `__proto__`, `constructor` and `prototype` key of a body before validation,
   * so a label of that name (`labels`, `filters.labels`) was dropped without a word. Refused
   * instead, naming the key and where it is.
   */
  protected override stripProtoKeys(value: unknown): void {
    const found = reservedKeyIn(value);
    if (found) {
      const where = found.path ? `${found.path}: ` : '';
      throw new BadRequestException([
        `${where}key ${JSON.stringify(found.key)} is reserved (${LABEL_LIMITS.reservedKeys.join(', ')} name JavaScript's object machinery): choose another`,
      ]);
    }
    super.stripProtoKeys(value);
  }
}

/** The first own key `__proto__`, `constructor` or `prototype` in a parsed body, and the path of the object holding it. */
export function reservedKeyIn(value: unknown): { key: string; path: string } | undefined {
  const reserved = LABEL_LIMITS.reservedKeys as readonly string[];
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  const seen = new WeakSet<object>();
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    for (const [key, child] of Object.entries(current)) {
      if (!Array.isArray(current) && reserved.includes(key)) return { key, path };
      stack.push({ value: child, path: Array.isArray(current) ? `${path}[${key}]` : path ? `${path}.${key}` : key });
    }
  }
  return undefined;
}

function plainFirst(error: ValidationError): ValidationError {
  // Left out or null: only a field's own error carries `value` (Nest strips it from parents and
  // leaves it off "object is expected"), and an unknown field sent as null is refused for being there.
  if ('value' in error && error.value == null && error.constraints && !error.constraints.whitelistValidation) {
    return { ...error, constraints: { isDefined: `${error.property} is required` } };
  }
  const constraints = error.constraints && Object.entries(error.constraints);
  const kind = constraints?.filter(([name]) => KIND_CONSTRAINTS.has(name));
  if (kind?.length) return { ...error, constraints: Object.fromEntries(kind), children: [] };
  return { ...error, ...(error.children ? { children: error.children.map(plainFirst) } : {}) };
}
