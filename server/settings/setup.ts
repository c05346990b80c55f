import { db } from '../db/client';
import { createFirstOwner, firstOwnerSchema } from '../setup/first-owner';
import { sameOriginProcedure, router } from './trpc';

/** First run only: once a user exists, createOwner refuses. */
export const setupRouter = router({
  createOwner: sameOriginProcedure.input(firstOwnerSchema).mutation(({ input }) => createFirstOwner(db(), input)),
});
