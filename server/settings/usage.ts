import { z } from 'zod';
import { db } from '../db/client';
import { principalNames } from '../keys/names';
import { usageReport } from '../usage/report';
import { lastDayByPrincipal } from '../usage/last-day';
import { router, usageManagerProcedure } from './trpc';
import { USAGE_RANGES, usageRange } from './usage-ranges';

/** The usage page and the usage columns of the keys' and apps' lists: owners and admins of the workspace. */
export const usageRouter = router({
  report: usageManagerProcedure.input(z.object({ range: usageRange })).query(async ({ ctx, input }) => {
    const { ms, granularity } = USAGE_RANGES[input.range];
    const until = new Date();
    const report = await usageReport(db(), ctx.workspace.id, { granularity, since: new Date(until.getTime() - ms), until });
    const ids = report.keys.map((row) => row.keyId ?? row.appId).filter((id): id is string => id !== null);
    return { ...report, names: await principalNames(db(), ctx.workspace.id, ids) };
  }),

  lastDay: usageManagerProcedure.query(({ ctx }) => lastDayByPrincipal(db(), ctx.workspace.id)),
});
