import { parseId } from '@board/kernel';
import { readProjectKey, readProjectName, readRulesText } from '@board/projects';
import { IdField } from '../http/dto/field-rules';
import { Accepts, Reads } from '../http/dto/reads';

const keyOrNone = (value: unknown) => (value === undefined || value === null ? undefined : readProjectKey(value));

/** POST /projects: the name first (a key is not spent on a bad name); no key derives one. */
export class CreateProjectBody {
  @Reads('name', (value) => readProjectName(value, true))
  name: string;

  @Reads('key', keyOrNone)
  key?: string | null;
}

/**
 * PATCH /projects/:projectId. Name and key are shapes; `doneWhen` and the flags are judged by
 * the service in the contract's order, after the key's clash and against the project's properties.
 */
export class UpdateProjectBody {
  @Reads('name', (value) => readProjectName(value, true), { optional: true })
  name?: string;

  @Reads('key', readProjectKey, { optional: true })
  key?: string;

  @Accepts('doneWhen')
  doneWhen?: unknown;

  @Accepts('releases')
  releases?: unknown;

  @Accepts('sprints')
  sprints?: unknown;
}

/** PUT /projects/:projectId/position: after which project in the caller's list (none: first). */
export class PositionBody {
  @IdField('project')
  afterId?: string | null;
}

/** POST /projects/:projectId/hand-over */
export class HandOverBody {
  @Reads('userId', (value) => parseId(value, 'member'))
  userId: string;
}

/** PUT /projects/:projectId/rules */
export class RulesBody {
  @Reads('text', readRulesText)
  text: string;
}
