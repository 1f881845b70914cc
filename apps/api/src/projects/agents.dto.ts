import { readColor, readEmoji, readName } from '@board/accounts';
import { Reads } from '../http/dto/reads';
import { PROFILE_DOC, UpdateMeBody } from '../accounts/accounts.dto';

/** POST /projects/:projectId/agents */
export class CreateAgentBody {
  @Reads('name', (value) => readName(value, true), { doc: { schema: PROFILE_DOC.name, required: true } })
  name: string;

  @Reads('color', readColor, { doc: { schema: PROFILE_DOC.color } })
  color?: string;

  @Reads('emoji', readEmoji, { doc: { schema: PROFILE_DOC.emoji } })
  emoji?: string | null;
}

/** PATCH /projects/:projectId/agents/:agentId, read once the agent is found: the fields of a person's profile. */
export class UpdateAgentBody extends UpdateMeBody {}
