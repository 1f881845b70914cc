import { DomainError } from '@board/kernel';
import { McpSlots } from './mcp-slots';

describe('McpSlots', () => {
  it('lets an agent hold its slots, refuses one more with heavy.too_many, and frees a slot once per release', () => {
    const slots = new McpSlots(2);
    const first = slots.take('a');
    slots.take('a');
    expect(() => slots.take('a')).toThrow(DomainError);
    try {
      slots.take('a');
    } catch (error) {
      expect((error as DomainError).code).toBe('heavy.too_many');
    }
    // Another agent has slots of its own.
    expect(() => slots.take('b')).not.toThrow();
    first();
    first();
    const again = slots.take('a');
    expect(() => slots.take('a')).toThrow(DomainError);
    again();
  });
});
