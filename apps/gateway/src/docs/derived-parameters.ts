import type { INestApplication } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { SchemaObject } from './contract-shapes.js';
import { withLimits } from './derived-schemas.js';

/**
 * The DTO of each route's `@Query()`, by the operation id Nest's document gives the route
 * (`RegistryController_list`): Nest spreads a query DTO into parameters and keeps no link to it.
 */
export function queryDtos(app: INestApplication): Map<string, Function> {
  const dtos = new Map<string, Function>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype: controller } of module.controllers.values()) {
      if (typeof controller !== 'function') continue;
      for (const method of Object.getOwnPropertyNames(controller.prototype)) {
        const dto = queryDtoOf(controller, method);
        if (dto) dtos.set(`${controller.name}_${method}`, dto);
      }
    }
  }
  return dtos;
}

function queryDtoOf(controller: Function, method: string): Function | undefined {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<string, { index: number; data?: unknown }>;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, method) ?? []) as Function[];
  const whole = Object.entries(args).find(([key, arg]) => key.startsWith(`${RouteParamtypes.QUERY}:`) && arg.data === undefined);
  return whole ? types[whole[1].index] : undefined;
}

/** Each query parameter with the limits its DTO's validators enforce. */
export function deriveQueryParameters(document: OpenAPIObject, app: INestApplication, validated: Record<string, SchemaObject>): void {
  const dtos = queryDtos(app);
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      const dto = typeof operation === 'object' && operation && 'operationId' in operation ? dtos.get(operation.operationId as string) : undefined;
      const properties = (dto && validated[dto.name]?.properties) as Record<string, SchemaObject> | undefined;
      for (const parameter of (operation as { parameters?: { in: string; name: string; schema?: SchemaObject }[] }).parameters ?? []) {
        if (parameter.in === 'query' && parameter.schema && properties?.[parameter.name]) {
          parameter.schema = withLimits(parameter.schema, properties[parameter.name]);
        }
      }
    }
  }
}
