import { ProjectView } from '@board/persistence';
import { DomainError } from '@board/kernel';

/** The project read shape of decisions.md: `{ id, name, key, ownerId, role, doneWhen, releases, sprints, createdAt }`. */
export function requireView(view: ProjectView | null): ProjectView {
  if (!view) throw new DomainError('project.not_found');
  return view;
}
