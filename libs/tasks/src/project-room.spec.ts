import { DomainError } from '@board/kernel';
import { checkProjectRoom, MAX_PROJECT_TASKS } from './project-room';

const codeOf = (f: () => void): string | null => {
  try {
    f();
    return null;
  } catch (e) {
    return e instanceof DomainError ? e.code : 'not a domain error';
  }
};

describe('checkProjectRoom', () => {
  it('takes tasks up to the limit, and none past it', () => {
    expect(MAX_PROJECT_TASKS).toBe(50_000);
    expect(codeOf(() => checkProjectRoom(0, 1))).toBeNull();
    expect(codeOf(() => checkProjectRoom(MAX_PROJECT_TASKS - 1, 1))).toBeNull();
    expect(codeOf(() => checkProjectRoom(MAX_PROJECT_TASKS - 10, 10))).toBeNull();
    expect(codeOf(() => checkProjectRoom(MAX_PROJECT_TASKS, 1))).toBe('task.project_full');
    expect(codeOf(() => checkProjectRoom(MAX_PROJECT_TASKS - 10, 11))).toBe('task.project_full');
  });

  it('lets a project already past the limit (an older import) go on without new tasks', () => {
    expect(codeOf(() => checkProjectRoom(MAX_PROJECT_TASKS + 5, 0))).toBeNull();
    expect(codeOf(() => checkProjectRoom(MAX_PROJECT_TASKS + 5, 1))).toBe('task.project_full');
  });
});
