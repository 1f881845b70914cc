import type { JsonSchema } from '../dto-schema';
import { arrayOf, bool, day, int, nullable, obj, ref, str, timestamp, uuid, words } from './common';

const project = {
  id: uuid,
  name: str,
  key: str,
  ownerId: uuid,
  role: words('owner', 'admin', 'member'),
  doneWhen: ref('DoneWhen'),
  releases: bool,
  sprints: bool,
  createdAt: timestamp,
  dailyBudgetMicros: { type: ['integer', 'null'], minimum: 1, description: "The project's daily budget for its agents' cost, in millionths; null: none." },
};
const projectOptional = ['releases', 'sprints', 'createdAt', 'dailyBudgetMicros'];

/** Accounts, projects, members, agents and tokens (interface.md › Resources). */
export const PEOPLE_SCHEMAS: Record<string, JsonSchema> = {
  User: obj({ id: uuid, email: str, name: str, color: str, emoji: nullable(str), mailNotifications: bool, totp: bool }),
  Avatar: obj({ id: uuid, name: str, color: str, emoji: nullable(str) }, [], 'Who did it: name, colour and emoji.'),
  Member: obj({
    id: uuid,
    name: str,
    email: nullable(str),
    color: str,
    emoji: nullable(str),
    role: words('owner', 'admin', 'member'),
    kind: words('human', 'agent'),
  }),
  Invite: obj({ email: str, createdAt: timestamp }),
  InviteAdded: obj(
    { email: str, createdAt: timestamp, mailed: bool, signupUrl: nullable(str) },
    [],
    'The invite an add made: `mailed` is true when the mail server accepted the invite mail before the answer; `signupUrl` is `<SERVICE_URL>/?invite=<email>`.',
  ),
  DoneWhen: nullable(obj({ propertyId: uuid, optionIds: arrayOf(uuid) })),
  Project: obj(project, projectOptional, 'A project as the caller sees it; `role` is the caller\'s own.'),
  ProjectListed: obj({ ...project, taskCount: int }, projectOptional, 'A project of `GET /api/projects`: the project and its number of live tasks.'),
  Token: obj({ id: uuid, agentId: uuid, prefix: str, createdAt: timestamp, lastUsedAt: nullable(timestamp) }, [], 'An agent token: only its prefix after creation.'),
  AgentMe: obj({
    agent: ref('Avatar'),
    project: obj({ id: uuid, name: str, key: str, role: str, waiting: int }),
  }),
};
export { day };
