import { ProfileChange, readColor, readEmoji, readName } from '@board/accounts';
import { Keeps } from '../http/dto/field-rules';
import { PROFILE_DOC, UpdateMeBody } from '../accounts/accounts.dto';

/** POST /projects/:projectId/agents: a profile, each field kept as its reader answered it. */
export class CreateAgentBody implements ProfileChange {
  @Keeps('name', (value) => readName(value, true), { doc: { schema: PROFILE_DOC.name, required: true } })
  name: string;

  @Keeps('color', readColor, { doc: { schema: PROFILE_DOC.color } })
  color?: string;

  @Keeps('emoji', readEmoji, { doc: { schema: PROFILE_DOC.emoji } })
  emoji?: string | null;
}

/** PATCH /projects/:projectId/agents/:agentId, read once the agent is found: the fields of a person's profile. */
export class UpdateAgentBody extends UpdateMeBody {}
