import { DomainError } from '@board/kernel';
import { parseRequest } from '../http/dto/request-dto.pipe';
import { CreateViewBody, UpdateViewBody, ViewTasksQuery } from './views.dto';

const refusal = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, params: error.params };
    throw error;
  }
  return null;
};

describe('view DTOs', () => {
  it('create: the name is checked before the kind, the kind before the grouping', () => {
    expect(refusal(() => parseRequest(CreateViewBody, { kind: 'nope', groupById: 'x' }))?.code).toBe('text.empty');
    expect(refusal(() => parseRequest(CreateViewBody, { name: 'A', kind: 'nope', groupById: 'x' }))?.code).toBe('view.kind_invalid');
    expect(refusal(() => parseRequest(CreateViewBody, { name: 'A', groupById: 'x' }))).toEqual({ code: 'id.invalid', params: { kind: 'property' } });
    expect(refusal(() => parseRequest(CreateViewBody, { name: 'A', kind: null, groupById: null }))).toBeNull();
  });

  it('update: absent fields pass, a present name is still required', () => {
    expect(refusal(() => parseRequest(UpdateViewBody, {}))).toBeNull();
    expect(refusal(() => parseRequest(UpdateViewBody, { name: '  ' }))?.code).toBe('text.empty');
    expect(refusal(() => parseRequest(UpdateViewBody, { kind: 3 }))?.code).toBe('view.kind_invalid');
  });

  it('task page: limit a whole number from 1 to 500, after a task id or empty', () => {
    for (const limit of ['0', '501', '1.5', '-1', 'x', ''])
      expect(refusal(() => parseRequest(ViewTasksQuery, { limit }))?.code).toBe('query.limit_invalid');
    expect(refusal(() => parseRequest(ViewTasksQuery, { limit: '500', after: '' }))).toBeNull();
    expect(refusal(() => parseRequest(ViewTasksQuery, { after: 'nope' }))).toEqual({ code: 'id.invalid', params: { kind: 'task' } });
  });
});
