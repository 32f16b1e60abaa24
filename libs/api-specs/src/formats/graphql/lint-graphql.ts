import type { LintFinding } from '#contracts';
import type { GraphqlDocument, GraphqlType } from './graphql.format.js';

/** How SDL opens each kind of type's definition, for a finding's path (`input CreateOrderInput.note`). */
const KEYWORDS: Record<GraphqlType['kind'], string> = {
  object: 'type',
  interface: 'interface',
  input: 'input',
  enum: 'enum',
  union: 'union',
  scalar: 'scalar',
};

/**
 * What a reader of the schema misses: operations (root fields) without a description (a warning:
 * search and agents have only the name), their undescribed arguments, types and fields without a
 * description, and types no operation can reach.
 */
export function lintGraphql(document: GraphqlDocument): LintFinding[] {
  const roots = new Map(document.roots.map(({ method, type }) => [type, method]));
  const findings: LintFinding[] = [];
  for (const type of document.types) {
    const at = `${KEYWORDS[type.kind]} ${type.name}`;
    const method = roots.get(type.name);
    if (method === undefined) {
      if (!type.description) findings.push({ code: 'graphql-type-description', severity: 'info', message: `${type.name} has no description`, path: at });
      if (type.kind === 'object' || type.kind === 'interface' || type.kind === 'input') {
        for (const field of type.members.filter((member) => !member.description)) {
          findings.push({
            code: 'graphql-field-description',
            severity: 'hint',
            message: `${type.name}.${field.name} has no description`,
            path: `${at}.${field.name}`,
          });
        }
      }
      continue;
    }
    for (const field of type.members) {
      const operation = `${method} ${field.name}`;
      if (!field.description) {
        findings.push({
          code: 'graphql-operation-description',
          severity: 'warning',
          message: `The ${method.toLowerCase()} ${field.name} has no description`,
          path: `${at}.${field.name}`,
          operation,
        });
      }
      for (const arg of (field.args ?? []).filter((candidate) => !candidate.description)) {
        findings.push({
          code: 'graphql-argument-description',
          severity: 'info',
          message: `The argument ${arg.name} of ${field.name} has no description`,
          path: `${at}.${field.name}(${arg.name})`,
          operation,
        });
      }
    }
  }
  for (const type of unreachable(document)) {
    findings.push({
      code: 'graphql-unused-type',
      severity: 'info',
      message: `${type.name} is defined but no operation uses it (not through fields, arguments, unions or interfaces)`,
      path: `${KEYWORDS[type.kind]} ${type.name}`,
    });
  }
  return findings;
}

/** Types no root type leads to through field and argument types, union members, or an interface's implementations. */
function unreachable(document: GraphqlDocument): GraphqlType[] {
  const types = new Map(document.types.map((type) => [type.name, type]));
  const implementations = new Map<string, string[]>();
  for (const type of document.types) {
    for (const name of type.interfaces ?? []) implementations.set(name, [...(implementations.get(name) ?? []), type.name]);
  }
  const reached = new Set<string>();
  const pending = document.roots.map((root) => root.type);
  while (pending.length > 0) {
    const name = pending.pop()!;
    const type = types.get(name);
    if (reached.has(name) || !type) continue;
    reached.add(name);
    for (const member of type.members) {
      // A union's members are types; fields and arguments have one (`[Issue!]!`); enum values have none.
      if (type.kind === 'union') pending.push(member.name);
      else if (member.type !== undefined) pending.push(namedType(member.type));
      for (const arg of member.args ?? []) pending.push(namedType(arg.type!));
    }
    pending.push(...(type.interfaces ?? []), ...(implementations.get(name) ?? []));
  }
  return document.types.filter((type) => !reached.has(type.name));
}

/** `[Issue!]!` → `Issue` */
function namedType(type: string): string {
  return type.replace(/[[\]!]/g, '');
}
