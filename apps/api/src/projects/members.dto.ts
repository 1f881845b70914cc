import { EMAIL_MAX, readEmail } from '@board/accounts';
import { readGivenRole } from '@board/projects';
import { Reads } from '../http/dto/reads';

/** POST /projects/:projectId/members: an account's email (else an invite) and a role, member by default. */
export class AddMemberBody {
  @Reads('email', readEmail, { doc: { schema: { type: 'string', maxLength: EMAIL_MAX }, required: true } })
  email: string;

  @Reads('role', (value) => readGivenRole(value, 'member'), { doc: { schema: { type: 'string', enum: ['member', 'admin'], description: 'member by default' } } })
  role?: 'member' | 'admin';
}

/** PATCH /projects/:projectId/members/:userId, read after the path's user id (the contract's order). */
export class ChangeRoleBody {
  @Reads('role', (value) => readGivenRole(value, undefined), { doc: { schema: { type: 'string', enum: ['member', 'admin'] }, required: true } })
  role: 'member' | 'admin';
}
