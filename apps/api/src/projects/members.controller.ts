import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseInterceptors } from '@nestjs/common';
import { Admin, HumanMember } from '../auth/access.decorator';
import { ClientId, InProject, ProjectAuthContext, ProjectScope } from '../auth/auth-context';
import { AddMemberBody, ChangeRoleBody } from './members.dto';
import { MemberPathCheck } from './member-path.check';
import { MembersService } from './members.service';

@Controller('projects/:projectId')
export class MembersController {
  constructor(private readonly members: MembersService) {}

  @Admin('add members')
  @Post('members')
  @HttpCode(201)
  add(@InProject() auth: ProjectAuthContext, @ProjectScope() scope: { id: string }, @Body() body: AddMemberBody, @ClientId() clientId: string | null) {
    return this.members.add(scope.id, body, clientId, { id: auth.caller.id, name: auth.caller.name });
  }

  @Admin('change roles')
  @Patch('members/:userId')
  @UseInterceptors(MemberPathCheck)
  changeRole(@InProject() auth: ProjectAuthContext, @ProjectScope() scope: { id: string }, @Param('userId') userId: string, @Body() body: ChangeRoleBody, @ClientId() clientId: string | null) {
    return this.members.changeRole(auth, scope.id, userId, body, clientId);
  }

  /** Owner and admins remove others; any person may leave. */
  @HumanMember()
  @Delete('members/:userId')
  async remove(@InProject() auth: ProjectAuthContext, @ProjectScope() scope: { id: string }, @Param('userId') userId: string, @ClientId() clientId: string | null) {
    await this.members.remove(auth, scope.id, userId, clientId);
    return { ok: true };
  }

  @Admin('remove invites')
  @Delete('invites/:email')
  async removeInvite(@ProjectScope() scope: { id: string }, @Param('email') email: string, @ClientId() clientId: string | null) {
    await this.members.removeInvite(scope.id, email, clientId);
    return { ok: true };
  }

  @Admin('make reset links')
  @Post('members/:userId/reset')
  @HttpCode(200)
  reset(@InProject() auth: ProjectAuthContext, @ProjectScope() scope: { id: string }, @Param('userId') userId: string) {
    return this.members.resetLink(auth, scope.id, userId);
  }
}
