import { describe, expect, it } from '@jest/globals';
import { BadRequestException } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { NotBlank, RequestValidationPipe } from './validation.js';

class FiltersDto {
  @IsOptional()
  @IsString()
  teamName?: string;
}

class ThingDto {
  @IsString()
  @NotBlank('name')
  @MaxLength(10)
  name: string;

  @IsOptional()
  @IsInt()
  size?: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => FiltersDto)
  filters?: FiltersDto;
}

/** The messages the pipe answers `body` with, or [] when it takes it. */
async function messagesFor(body: unknown): Promise<string[]> {
  try {
    await new RequestValidationPipe().transform(body, { type: 'body', metatype: ThingDto });
    return [];
  } catch (error) {
    if (!(error instanceof BadRequestException)) throw error;
    return (error.getResponse() as { message: string[] }).message;
  }
}

describe(RequestValidationPipe.name, () => {
  it.each([
    ['left out', {}],
    ['null', { name: null }],
  ])('should say a required field %s is required, and nothing else about it', async (_case, body) => {
    await expect(messagesFor(body)).resolves.toEqual(['name is required']);
  });

  it('should still say what is wrong with a value that was sent', async () => {
    await expect(messagesFor({ name: ' ' })).resolves.toEqual(['name must not be blank']);
    await expect(messagesFor({ name: 7 })).resolves.toEqual(['name must be a string']);
  });

  it('should refuse an unknown field sent as null for being there', async () => {
    await expect(messagesFor({ name: 'x', extra: null })).resolves.toEqual(['property extra should not exist']);
  });

  it('should take optional fields left out or null', async () => {
    await expect(messagesFor({ name: 'x', size: null, filters: { teamName: null } })).resolves.toEqual([]);
  });

  it('should name a nested field by its path', async () => {
    await expect(messagesFor({ name: 'x', filters: { teamName: 3 } })).resolves.toEqual(['filters.teamName must be a string']);
  });

  it('should refuse a __proto__, constructor or prototype key anywhere in the body, naming it and where it is, rather than drop it', async () => {
    await expect(messagesFor(JSON.parse('{"name": "x", "__proto__": {"size": 1}}'))).resolves.toEqual([
      'key "__proto__" is reserved (__proto__, constructor, prototype name JavaScript\'s object machinery): choose another',
    ]);
    await expect(messagesFor({ name: 'x', filters: { constructor: 'y' } })).resolves.toEqual([
      expect.stringMatching(/^filters: key "constructor" is reserved/),
    ]);
    await expect(messagesFor({ name: 'x', list: [{ prototype: 1 }] })).resolves.toEqual([expect.stringMatching(/^list\[0\]: key "prototype" is reserved/)]);
  });
});
