import type { LintFinding } from '#contracts';
import { followRef } from '../shared/schema.js';
import { isObject } from '../../is-object.js';
import type { McpDocument } from './mcp.format.js';

/**
 * What an agent choosing a tool misses: a tool without a description (a warning: the agent has
 * only its name), arguments without one, and a tool that does not say whether it changes anything.
 */
export function lintMcp(document: McpDocument): LintFinding[] {
  return document.tools.flatMap((tool) => {
    const at = `tool ${tool.name}`;
    const operation = `TOOL ${tool.name}`;
    const findings: LintFinding[] = [];
    if (!tool.description) {
      findings.push({ code: 'mcp-tool-description', severity: 'warning', message: `The tool ${tool.name} has no description`, path: at, operation });
    }
    const input = followRef(tool.inputSchema, tool.inputSchema) ?? tool.inputSchema;
    for (const [name, property] of Object.entries(isObject(input.properties) ? input.properties : {})) {
      const description = followRef(tool.inputSchema, property)?.description;
      if (typeof description === 'string' && description.trim()) continue;
      findings.push({
        code: 'mcp-argument-description',
        severity: 'info',
        message: `The argument ${name} of ${tool.name} has no description`,
        path: `${at}.${name}`,
        operation,
      });
    }
    const { readOnlyHint, destructiveHint } = tool.annotations ?? {};
    if (readOnlyHint === undefined && destructiveHint === undefined) {
      findings.push({
        code: 'mcp-tool-annotations',
        severity: 'hint',
        message: `The tool ${tool.name} has no readOnlyHint or destructiveHint annotation: a client cannot tell whether it changes anything`,
        path: at,
        operation,
      });
    }
    return findings;
  });
}
