/** The ledgers module's own messages (docs/api/ledgers.md). */
export const LEDGER_MESSAGES = {
  notFound: 'Ledger not found.',
  memberNotFound: 'Member not found.',
  invitationNotFound: 'Invitation not found.',
  ownerOnly: 'Only an owner of this ledger can do this.',
  lastOwner: 'A ledger needs an owner: make another member owner first.',
  personalDelete: 'A personal ledger cannot be deleted: it goes with its account.',
  personalLeave: 'A personal ledger cannot be left: it goes with its account.',
  personalOwner: 'The person whose personal ledger this is stays its owner.',
  invitationInvalid:
    'This invitation link cannot be used: it may have expired, been used or been revoked. Ask for a new one.',
  tooManyInvitations: 'Too many invitations made.',
  tooManyInvitationAttempts: 'Too many invitation links tried.',
  deleted: 'Ledger deleted.',
  removed: 'Member removed.',
  left: 'You left the ledger.',
  revoked: 'Invitation revoked.',
} as const;
