import { type InTurn, parseId } from '@board/kernel';
import {
  DAILY_BUDGET_MAX, type DoneWhenAsked, PROJECT_NAME_MAX, PROJECT_TEMPLATES, type ProjectChange, type ProjectCreate, type ProjectTemplate, readDailyBudget,
  readDoneWhen, readProjectFlag, readProjectKey, readProjectName, readProjectTemplate, readRulesText, RULES_MAX,
} from '@board/projects';
import { Keeps, KeepsInTurn, ReadIdField } from '../http/dto/field-rules';

const keyOrNone = (value: unknown) => (value === undefined || value === null ? null : readProjectKey(value));

/** What the API document says of a project's fields. */
const NAME = { type: 'string', maxLength: PROJECT_NAME_MAX };
const KEY = { type: 'string', description: '2 to 10 characters, a letter then letters or digits; upper-cased.' };
const uuid = { type: 'string', format: 'uuid' };

/** POST /projects: the name first (a key is not spent on a bad name); no key derives one. */
export class CreateProjectBody implements ProjectCreate {
  @Keeps('name', (value) => readProjectName(value, true), { doc: { schema: NAME, required: true } })
  name: string;

  @Keeps('key', keyOrNone, { doc: { schema: { anyOf: [KEY, { type: 'null' }], description: 'None: one is derived from the name.' } } })
  key: string | null;

  @Keeps('template', readProjectTemplate, {
    doc: { schema: { type: 'string', enum: [...PROJECT_TEMPLATES], default: 'empty', description: 'empty: Status only; team: also Assignee, Due, Priority and Labels.' } },
  })
  template: ProjectTemplate;
}

/**
 * PATCH /projects/:projectId. Name, key and budget are refused here; `doneWhen` and the flags are
 * read here too, but the contract refuses them after the key's clash and judges `doneWhen` against
 * the project's properties, so their refusals wait their turn (`ProjectChange`).
 */
export class UpdateProjectBody implements ProjectChange {
  @Keeps('name', (value) => readProjectName(value, true), { optional: true, doc: { schema: NAME } })
  name?: string;

  @Keeps('key', readProjectKey, { optional: true, doc: { schema: KEY } })
  key?: string;

  @KeepsInTurn('doneWhen', readDoneWhen, {
    doc: {
      schema: {
        anyOf: [{ type: 'object', properties: { propertyId: uuid, optionIds: { type: 'array', items: uuid } }, required: ['propertyId', 'optionIds'] }, { type: 'null' }],
        description: 'A select property of the project and the options that mean over; null: none.',
      },
    },
  })
  doneWhen?: InTurn<DoneWhenAsked | null>;

  @KeepsInTurn('releases', (value) => readProjectFlag('releases', value), { doc: { schema: { type: 'boolean' } } })
  releases?: InTurn<boolean>;

  @KeepsInTurn('sprints', (value) => readProjectFlag('sprints', value), { doc: { schema: { type: 'boolean' } } })
  sprints?: InTurn<boolean>;

  @Keeps('dailyBudgetMicros', readDailyBudget, {
    optional: true,
    doc: { schema: { type: ['integer', 'null'], minimum: 1, maximum: DAILY_BUDGET_MAX, description: "The agents' cost a UTC day may reach (millionths); null: none." } },
  })
  dailyBudgetMicros?: number | null;
}

/** PUT /projects/:projectId/position: after which project in the caller's list (none: first). */
export class PositionBody {
  @ReadIdField('project')
  afterId?: string | null;
}

/** POST /projects/:projectId/hand-over */
export class HandOverBody {
  @Keeps('userId', (value) => parseId(value, 'member'), { doc: { schema: { ...uuid, description: 'A person who is a member.' }, required: true } })
  userId: string;
}

/** PUT /projects/:projectId/rules */
export class RulesBody {
  @Keeps('text', readRulesText, { doc: { schema: { type: 'string', maxLength: RULES_MAX }, required: true } })
  text: string;
}
