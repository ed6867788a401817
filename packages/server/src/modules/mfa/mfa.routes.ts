import {
  mfaEnableBody,
  mfaEnableResponse,
  mfaSetupBody,
  mfaSetupResponse,
  mfaStatus,
  recoveryCodesBody,
  recoveryCodesResponse,
} from '@billfold/contract/mfa';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { MfaService } from './mfa.service.ts';

/** Enrolment and recovery codes of the signed-in account; the sign-in's code step is under `/auth`. */
export function mfaRoutes(app: FastifyInstance, service: MfaService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['user'];
  const security = [{ bearer: [] }];
  r.get(
    '/user/mfa',
    {
      schema: {
        tags,
        security,
        summary: 'Whether MFA is on, and how many unused recovery codes are left',
        response: { 200: mfaStatus, ...errorResponses(401) },
      },
    },
    async (request) => service.status(request.userId),
  );
  r.post(
    '/user/mfa/setup',
    {
      schema: {
        tags,
        security,
        summary: 'Start MFA set-up: a new TOTP secret (text and otpauth URI), pending until confirmed',
        body: mfaSetupBody,
        response: { 200: mfaSetupResponse, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request) => service.setup(request.userId, request.body.password, request.ip),
  );
  r.post(
    '/user/mfa/enable',
    {
      schema: {
        tags,
        security,
        summary: 'Confirm the set-up with a code: MFA on, and the ten recovery codes, shown this once',
        body: mfaEnableBody,
        response: { 200: mfaEnableResponse, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request) => service.enable(request.userId, request.body.code, request.ip),
  );
  r.post(
    '/user/mfa/recovery-codes',
    {
      schema: {
        tags,
        security,
        summary: 'Ten new recovery codes (the old ones stop working); needs the password and a code',
        body: recoveryCodesBody,
        response: { 200: recoveryCodesResponse, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request) =>
      service.regenerateRecoveryCodes(request.userId, request.body.password, request.body.code, request.ip),
  );
}
