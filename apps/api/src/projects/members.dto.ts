import { EMAIL_MAX, readEmail } from '@board/accounts';
import { readGivenRole } from '@board/projects';
import { Keeps } from '../http/dto/field-rules';

/** POST /projects/:projectId/members: an account's email (else an invite) and a role, member by default. */
export class AddMemberBody {
  @Keeps('email', readEmail, { doc: { schema: { type: 'string', maxLength: EMAIL_MAX }, required: true } })
  email: string;

  @Keeps('role', (value) => readGivenRole(value, 'member'), { doc: { schema: { type: 'string', enum: ['member', 'admin'], description: 'member by default' } } })
  role: 'member' | 'admin';
}

/** PATCH /projects/:projectId/members/:userId, read after the path's user id (`MemberPathCheck`, the contract's order). */
export class ChangeRoleBody {
  @Keeps('role', (value) => readGivenRole(value, undefined), { doc: { schema: { type: 'string', enum: ['member', 'admin'] }, required: true } })
  role: 'member' | 'admin';
}
