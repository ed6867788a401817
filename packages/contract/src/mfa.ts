/** Turning two-factor sign-in on and off, and recovery codes: `/user/mfa/*`. */
import { z } from 'zod';
import { mfaCode, password } from './auth.ts';
import { user } from './users.ts';

export const mfaSetupBody = z.object({ password });
export const mfaSetupResponse = z.object({ secret: z.string(), otpauthUri: z.string() });
export const mfaEnableBody = z.object({ code: mfaCode });
export const recoveryCodes = z.array(z.string());
export const mfaEnableResponse = z.object({ user, recoveryCodes });
export const recoveryCodesBody = z.object({ password, code: mfaCode });
export const recoveryCodesResponse = z.object({ recoveryCodes });
export const mfaStatus = z.object({ mfaEnabled: z.boolean(), recoveryCodesLeft: z.number().int() });

export type MfaSetupResponse = z.infer<typeof mfaSetupResponse>;
export type MfaEnableResponse = z.infer<typeof mfaEnableResponse>;
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponse>;
export type MfaStatus = z.infer<typeof mfaStatus>;
