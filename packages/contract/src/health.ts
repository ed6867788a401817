/** The health check: `/health`. */
import { z } from 'zod';

export const healthResponse = z.object({ status: z.string(), db: z.string() });
