import { db } from '../db/client';
import { createFirstOwner, firstOwnerSchema } from '../setup/first-owner';
import { sameOriginProcedure, router } from './trpc';

const UNKNOWN_REQUEST = { ip: null, userAgent: null, requestId: null };

/** First run only: once a user exists, createOwner refuses. */
export const setupRouter = router({
  createOwner: sameOriginProcedure
    .input(firstOwnerSchema)
    .mutation(({ ctx, input }) => createFirstOwner(db(), input, ctx.request ?? UNKNOWN_REQUEST)),
});
