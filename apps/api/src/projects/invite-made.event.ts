/** An in-process event: a member was added by an email that has no account, so an invite was made. */
export class InviteMade {
  static readonly NAME = 'invite.made';

  constructor(
    readonly projectId: string,
    readonly email: string,
    /** Who made it, for the mail's words. */
    readonly inviterName: string,
  ) {}
}
