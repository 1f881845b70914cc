import { readColor, readEmoji, readName } from '@board/accounts';
import { Reads } from '../http/dto/reads';
import { UpdateMeBody } from '../accounts/accounts.dto';

/** POST /projects/:projectId/agents */
export class CreateAgentBody {
  @Reads('name', (value) => readName(value, true))
  name: string;

  @Reads('color', readColor)
  color?: string;

  @Reads('emoji', readEmoji)
  emoji?: string | null;
}

/** PATCH /projects/:projectId/agents/:agentId, read once the agent is found: the fields of a person's profile. */
export class UpdateAgentBody extends UpdateMeBody {}
