import { DomainError } from '@board/kernel';
import { parseRequest } from '../http/dto/request-dto.pipe';
import { CreatePropertyBody, ShipBody, UpdatePropertyBody } from './properties.dto';

const codeOf = (read: () => unknown): string | null => {
  try {
    read();
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
};

describe('property DTOs', () => {
  it('create: name, then type, then the first options (only for a type that has them)', () => {
    expect(codeOf(() => parseRequest(CreatePropertyBody, { type: 'nope', options: 3 }))).toBe('text.empty');
    expect(codeOf(() => parseRequest(CreatePropertyBody, { name: 'P', type: 'nope', options: 3 }))).toBe('property.type_invalid');
    expect(codeOf(() => parseRequest(CreatePropertyBody, { name: 'P', type: 'select', options: 3 }))).toBe('option.names_not_list');
    expect(codeOf(() => parseRequest(CreatePropertyBody, { name: 'P', type: 'text', options: 3 }))).toBeNull();
  });

  it('update: a sent showOnCard must be a boolean; absent fields pass', () => {
    expect(codeOf(() => parseRequest(UpdatePropertyBody, {}))).toBeNull();
    expect(codeOf(() => parseRequest(UpdatePropertyBody, { showOnCard: 'yes' }))).toBe('input.boolean');
  });

  it('ship: rest first, then strays (absent or null reads as false)', () => {
    expect(codeOf(() => parseRequest(ShipBody, { strays: 'x' }))).toBe('ship.rest_invalid');
    expect(codeOf(() => parseRequest(ShipBody, { rest: 'next', strays: 'x' }))).toBe('input.boolean');
    expect(codeOf(() => parseRequest(ShipBody, { rest: 'leave', strays: null }))).toBeNull();
  });
});
