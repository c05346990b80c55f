import { db } from '../db/client';
import { firstOwnerSchema, setUpFirstOwner } from '../setup/first-owner';
import { sameOriginProcedure, router } from './trpc';

const UNKNOWN_REQUEST = { ip: null, userAgent: null, requestId: null };

/** First run only: refused without the setup code, and once a user exists. */
export const setupRouter = router({
  createOwner: sameOriginProcedure
    .input(firstOwnerSchema)
    .mutation(({ ctx, input }) => setUpFirstOwner(db(), input, ctx.request ?? UNKNOWN_REQUEST)),
});
