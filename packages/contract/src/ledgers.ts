/**
 * Ledgers: the unit of data people share (docs/decisions/0107-ledgers.md). Every invoice, payment, entity,
 * schedule, category, import and recycle-bin item belongs to one ledger. A request names its ledger in the
 * `Billfold-Ledger` header; without it, the caller's personal ledger.
 */
import { z } from 'zod';
import { password } from './auth.ts';
import { LEDGER_ROLES } from './ledger-basics.ts';
import { id, nameText, timestamp } from './primitives.ts';

// The header, the roles and the viewer's message live in the zod-free ledger-basics.ts (the web app's first download).
export {
  LEDGER_HEADER,
  LEDGER_OWNER_ONLY_MESSAGE,
  LEDGER_READ_ONLY_MESSAGE,
  LEDGER_ROLES,
  type LedgerRole,
} from './ledger-basics.ts';
export const ledgerRole = z.enum(LEDGER_ROLES);

/** The roles an invitation can give: a ledger gets further owners by a role change, never by a link. */
export const INVITATION_ROLES = ['editor', 'viewer'] as const;
export type InvitationRole = (typeof INVITATION_ROLES)[number];

/** How long an invitation link stays usable. */
export const INVITATION_TTL_DAYS = 7;

/** The longest ledger name, in characters. */
export const MAX_LEDGER_NAME = 100;
export const ledgerName = nameText(MAX_LEDGER_NAME).pipe(z.string().min(1, 'is required'));

/** A ledger as one of its members sees it. */
export const ledger = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The caller's role in it. */
  role: ledgerRole,
  /** The caller's personal ledger (the one used without the header); it cannot be left or deleted. */
  personal: z.boolean(),
  memberCount: z.number().int(),
  createdAt: timestamp,
});
export type Ledger = z.infer<typeof ledger>;
export const ledgerList = z.object({ ledgers: z.array(ledger) });
export type LedgerList = z.infer<typeof ledgerList>;

export const createLedgerBody = z.object({ name: ledgerName });
export const renameLedgerBody = z.object({ name: ledgerName });
/** Deleting a ledger (its owner only) is confirmed with the owner's current password. */
export const deleteLedgerBody = z.object({ password });
export type CreateLedgerBody = z.input<typeof createLedgerBody>;
export type RenameLedgerBody = z.input<typeof renameLedgerBody>;
export type DeleteLedgerBody = z.input<typeof deleteLedgerBody>;

export const ledgerMember = z.object({
  userId: z.number().int(),
  username: z.string(),
  role: ledgerRole,
  joinedAt: timestamp,
  /** Whether this member is the caller. */
  you: z.boolean(),
});
export type LedgerMember = z.infer<typeof ledgerMember>;
export const ledgerMemberList = z.object({ members: z.array(ledgerMember) });
export type LedgerMemberList = z.infer<typeof ledgerMemberList>;
export const changeRoleBody = z.object({ role: ledgerRole });
export type ChangeRoleBody = z.input<typeof changeRoleBody>;
export const memberParams = z.object({ id, userId: id });

export const invitation = z.object({
  id: z.number().int(),
  ledgerId: z.number().int(),
  role: z.enum(INVITATION_ROLES),
  createdAt: timestamp,
  expiresAt: timestamp,
  /** Who made it. */
  createdBy: z.string(),
  /**
   * The link to hand over, carrying the single-use token: present only in the answer that created the
   * invitation (the server stores the token hashed, so it can never show it again).
   */
  link: z.string().optional(),
});
export type Invitation = z.infer<typeof invitation>;
export const invitationList = z.object({ invitations: z.array(invitation) });
export type InvitationList = z.infer<typeof invitationList>;
export const createInvitationBody = z.object({ role: z.enum(INVITATION_ROLES).default('editor') });
export type CreateInvitationBody = z.input<typeof createInvitationBody>;
export const invitationParams = z.object({ id, invitationId: id });
export const invitationTokenParams = z.object({ token: z.string().min(20).max(200) });
/** What a signed-in user sees of an invitation before accepting it (`GET /invitations/{token}`). */
export const invitationPreview = z.object({
  ledgerName: z.string(),
  role: z.enum(INVITATION_ROLES),
  invitedBy: z.string(),
  expiresAt: timestamp,
  /** Already a member: accepting changes nothing. */
  alreadyMember: z.boolean(),
});
export type InvitationPreview = z.infer<typeof invitationPreview>;
/**
 * What `POST /invitations/{token}/accept` answers: the ledger joined, as the caller now sees it (also when they
 * were a member already, which changes nothing and leaves the link unused).
 */
export const acceptInvitationResult = z.object({ ledger, joined: z.boolean() });
export type AcceptInvitationResult = z.infer<typeof acceptInvitationResult>;
