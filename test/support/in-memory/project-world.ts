import { User } from '@board/accounts';
import { Project, projectSeed, Role } from '@board/projects';
import { RecordingUnitOfWork } from '../recording-unit-of-work';
import { InMemoryAgentTokenRepository } from './agent-token-repository';
import { SteppedClock } from './clock';
import { InMemoryMemberRepository } from './member-repository';
import { InMemoryProjectQuery } from './project-query';
import { InMemoryProjectRepository } from './project-repository';
import { InMemoryUserRepository } from './user-repository';

/** The in-memory ports of projects, members and agents, wired together, with set-up helpers. */
export function projectWorld() {
  const clock = new SteppedClock();
  const uow = new RecordingUnitOfWork();
  const users = new InMemoryUserRepository();
  const members = new InMemoryMemberRepository();
  const projects = new InMemoryProjectRepository();
  const tokens = new InMemoryAgentTokenRepository();
  const query = new InMemoryProjectQuery(projects, members, users, tokens);
  let ids = 0;
  /** Ids as the routes take them (UUIDs), told apart by a counter. */
  const id = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`;

  /** A person, stored. */
  const person = (name: string) =>
    users.put(User.registerPerson({ id: id(), email: `${name.toLowerCase()}@example.com`, name, passwordHash: 'hashed:pw', now: clock.now() }));

  /** A project owned by `owner`, seeded as a new project is. */
  const project = async (owner: User, name = 'Web') => {
    const created = Project.create({ id: id(), name, key: `K${String.fromCharCode(65 + (ids % 26))}`, ownerId: owner.id, now: clock.now() });
    await projects.insert(created, projectSeed(id, 'empty'));
    await members.add(created.id, owner.id, 'owner');
    return created;
  };

  /** `user` joins `projectId` with `role`. */
  const join = (projectId: string, user: User, role: Role) => members.add(projectId, user.id, role);

  /** An agent of the project, stored and a member. */
  const agent = async (projectId: string, name = 'Bot') => {
    const made = users.put(User.createAgent({ id: id(), projectId, name, now: clock.now() }));
    members.agents.add(made.id);
    await members.add(projectId, made.id, 'member');
    return made;
  };

  return { clock, uow, users, members, projects, tokens, query, person, project, join, agent };
}
