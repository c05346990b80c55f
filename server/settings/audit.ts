import { z } from 'zod';
import { getAuditEvent, listAuditEvents } from '../audit/list';
import { db } from '../db/client';
import { auditEventsQuery } from '../schemas/audit';
import { auditReaderProcedure, router } from './trpc';

/** The audit log page: owners and admins of the workspace read it, as they manage what it records. */
export const auditRouter = router({
  list: auditReaderProcedure.input(auditEventsQuery).query(({ ctx, input }) => listAuditEvents(db(), ctx.workspace.id, input)),
  get: auditReaderProcedure.input(z.object({ id: z.string() })).query(({ ctx, input }) => getAuditEvent(db(), ctx.workspace.id, input.id)),
});
