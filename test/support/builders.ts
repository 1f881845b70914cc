/**
 * Shared, typed builders for end-to-end set-up, all through the API (they throw with the status
 * and body of an unexpected answer, so a broken set-up fails loudly):
 * - `aTeam`: an owner, a member, an outsider with a project of their own, an agent with its token,
 *   and the project with its Status property — the cast most e2e suites start from;
 * - `aProject`: a project with properties (and their options) by name;
 * - `anAgent`: an agent of a project with its token;
 * - `aBoard`: n tasks with values.
 */
import type { MemberAnswer, OptionAnswer, ProjectAnswer, PropertyAnswer, TaskAnswer } from './answers';
import { createProperty, createTaskFromBody, expectStatus } from './fixtures';
import { addMember, Client, createAgent, createProject, Person, registerPerson, TestApp } from './test-app';

/** A property with its options, as the builders answer it. */
export type Prop = Pick<PropertyAnswer, 'id' | 'name' | 'type' | 'options'>;

/** The id of the option called `name` of a property; throws when there is none. */
export function optionId(prop: { options: OptionAnswer[] }, name: string): string {
  const option = prop.options.find((o) => o.name === name);
  if (!option) throw new Error(`no option ${name} among ${prop.options.map((o) => o.name).join(', ')}`);
  return option.id;
}

/** A project's property called `name`, read from its board. */
export async function propertyNamed(client: Client, projectId: string, name: string): Promise<Prop> {
  const board: { properties: PropertyAnswer[] } = await expectStatus(client.get(`/projects/${projectId}/board`), 200);
  const found = board.properties.find((p) => p.name === name);
  if (!found) throw new Error(`project ${projectId} has no property ${name}`);
  return { id: found.id, name: found.name, type: found.type, options: found.options };
}

/** What a property is made of: its type and, for the select kinds, its options' names. */
export type PropertySpec = [type: string, options?: string[]];

/** A project and what it was built with. */
export interface BuiltProject {
  project: ProjectAnswer;
  /** The Status select every new project has. */
  status: Prop;
  /** The properties asked for, by name. */
  props: Record<string, Prop>;
}

/**
 * Creates a project as `owner` with properties by name, e.g.
 * `aProject(owner.client, { key: 'VAL', properties: { Tags: ['multi_select', ['Red', 'Green']], Points: ['number'] } })`.
 */
export async function aProject(
  owner: Client,
  options: { name?: string; key?: string; properties?: Record<string, PropertySpec> } = {},
): Promise<BuiltProject> {
  const project = await createProject(owner, options.name ?? 'Test project', options.key);
  const status = await propertyNamed(owner, project.id, 'Status');
  const props: Record<string, Prop> = {};
  for (const [name, [type, names]] of Object.entries(options.properties ?? {})) {
    props[name] = await createProperty(owner, project.id, name, type, names);
  }
  return { project, status, props };
}

/** An agent of a project: a client calling with its token, the agent as a member, the token. */
export interface Agent {
  client: Client;
  agent: MemberAnswer;
  token: string;
}

/** Adds an agent to a project (as its owner or an admin). */
export async function anAgent(owner: Client, projectId: string, name = 'Robo'): Promise<Agent> {
  return createAgent(owner, projectId, name);
}

/** The cast most suites start from. */
export interface Team extends BuiltProject {
  owner: Person;
  /** A member (role member) of the project. */
  member: Person;
  /** Not a member; owns `otherProject`. */
  outsider: Person;
  otherProject: ProjectAnswer;
  /** The Status property of `otherProject` (a property of another project). */
  foreignStatus: Prop;
  agent: Agent;
}

/**
 * Registers Olive (owner), Milo (member) and Oscar (outsider), creates Olive's project (with the
 * properties asked for) and adds Milo, adds the agent Robo, and Oscar's project "Elsewhere".
 */
export async function aTeam(
  t: TestApp,
  options: { name?: string; key?: string; properties?: Record<string, PropertySpec> } = {},
): Promise<Team> {
  const owner = await registerPerson(t, 'Olive');
  const member = await registerPerson(t, 'Milo');
  const outsider = await registerPerson(t, 'Oscar');
  const built = await aProject(owner.client, options);
  await addMember(owner.client, built.project.id, member);
  const agent = await anAgent(owner.client, built.project.id, 'Robo');
  const otherProject = await createProject(outsider.client, 'Elsewhere', 'ELS');
  const foreignStatus = await propertyNamed(outsider.client, otherProject.id, 'Status');
  return { ...built, owner, member, outsider, otherProject, foreignStatus, agent };
}

/**
 * Creates `n` tasks in a project as `client`, one after another (board order = creation order
 * at the end), titled `${title} 1…n`, each with `values(i)` (i from 0). Answers the tasks.
 */
export async function aBoard(
  client: Client,
  projectId: string,
  n: number,
  options: { title?: string; values?: (i: number) => Record<string, unknown> } = {},
): Promise<TaskAnswer[]> {
  const tasks: TaskAnswer[] = [];
  for (let i = 0; i < n; i++) {
    const values = options.values?.(i);
    tasks.push(await createTaskFromBody(client, projectId, { title: `${options.title ?? 'Task'} ${i + 1}`, ...(values ? { values } : {}) }));
  }
  return tasks;
}
