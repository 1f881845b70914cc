import { parseId } from '@board/kernel';
import {
  DAILY_BUDGET_MAX, PROJECT_NAME_MAX, PROJECT_TEMPLATES, readDailyBudget, readProjectKey, readProjectName, readProjectTemplate, readRulesText, RULES_MAX,
} from '@board/projects';
import { IdField } from '../http/dto/field-rules';
import { Accepts, Reads } from '../http/dto/reads';

const keyOrNone = (value: unknown) => (value === undefined || value === null ? undefined : readProjectKey(value));

/** What the API document says of a project's fields. */
const NAME = { type: 'string', maxLength: PROJECT_NAME_MAX };
const KEY = { type: 'string', description: '2 to 10 characters, a letter then letters or digits; upper-cased.' };
const uuid = { type: 'string', format: 'uuid' };

/** POST /projects: the name first (a key is not spent on a bad name); no key derives one. */
export class CreateProjectBody {
  @Reads('name', (value) => readProjectName(value, true), { doc: { schema: NAME, required: true } })
  name: string;

  @Reads('key', keyOrNone, { doc: { schema: { anyOf: [KEY, { type: 'null' }], description: 'None: one is derived from the name.' } } })
  key?: string | null;

  @Reads('template', readProjectTemplate, {
    doc: { schema: { type: 'string', enum: [...PROJECT_TEMPLATES], default: 'empty', description: 'empty: Status only; team: also Assignee, Due, Priority and Labels.' } },
  })
  template?: string | null;
}

/**
 * PATCH /projects/:projectId. Name and key are shapes; `doneWhen` and the flags are judged by
 * the service in the contract's order, after the key's clash and against the project's properties.
 */
export class UpdateProjectBody {
  @Reads('name', (value) => readProjectName(value, true), { optional: true, doc: { schema: NAME } })
  name?: string;

  @Reads('key', readProjectKey, { optional: true, doc: { schema: KEY } })
  key?: string;

  @Accepts('doneWhen', {
    schema: {
      anyOf: [{ type: 'object', properties: { propertyId: uuid, optionIds: { type: 'array', items: uuid } }, required: ['propertyId', 'optionIds'] }, { type: 'null' }],
      description: 'A select property of the project and the options that mean over; null: none.',
    },
  })
  doneWhen?: unknown;

  @Accepts('releases', { schema: { type: 'boolean' } })
  releases?: unknown;

  @Accepts('sprints', { schema: { type: 'boolean' } })
  sprints?: unknown;

  @Reads('dailyBudgetMicros', readDailyBudget, {
    optional: true,
    doc: { schema: { type: ['integer', 'null'], minimum: 1, maximum: DAILY_BUDGET_MAX, description: "The agents' cost a UTC day may reach (millionths); null: none." } },
  })
  dailyBudgetMicros?: number | null;
}

/** PUT /projects/:projectId/position: after which project in the caller's list (none: first). */
export class PositionBody {
  @IdField('project')
  afterId?: string | null;
}

/** POST /projects/:projectId/hand-over */
export class HandOverBody {
  @Reads('userId', (value) => parseId(value, 'member'), { doc: { schema: { ...uuid, description: 'A person who is a member.' }, required: true } })
  userId: string;
}

/** PUT /projects/:projectId/rules */
export class RulesBody {
  @Reads('text', readRulesText, { doc: { schema: { type: 'string', maxLength: RULES_MAX }, required: true } })
  text: string;
}
