import { procedure, router } from "../trpc/init.ts";
import { appAlertmanager } from "../alerts/config-sync.ts";
import { listAlerts } from "../alerts/list.ts";
import { deleteReceiver, listReceivers, saveReceiver } from "../alerts/receivers.ts";
import { createSilence, expireSilence, listSilences } from "../alerts/silences.ts";
import { createSilenceInput, expireSilenceInput, listAlertsInput, receiverIdInput, receiverInput, updateReceiverInput } from "../alerts/schemas.ts";
import type { Context } from "../trpc/context.ts";

const withAm = <T extends Context>(ctx: T) => ({ ...ctx, alertmanager: ctx.alertmanager === undefined ? appAlertmanager() : ctx.alertmanager });

export const alertRouter = router({
  list: procedure("alert:read").input(listAlertsInput).query(({ ctx, input }) => listAlerts(ctx, input)),
  receivers: procedure("alert:read").query(({ ctx }) => listReceivers(ctx)),
  createReceiver: procedure("alert:write").input(receiverInput).mutation(({ ctx, input }) => saveReceiver(withAm(ctx), input)),
  updateReceiver: procedure("alert:write").input(updateReceiverInput).mutation(({ ctx, input }) => saveReceiver(withAm(ctx), input)),
  deleteReceiver: procedure("alert:write").input(receiverIdInput).mutation(({ ctx, input }) => deleteReceiver(withAm(ctx), input)),
  silences: procedure("alert:read").query(({ ctx }) => listSilences(withAm(ctx))),
  createSilence: procedure("alert:write").input(createSilenceInput).mutation(({ ctx, input }) => createSilence(withAm(ctx), input)),
  expireSilence: procedure("alert:write").input(expireSilenceInput).mutation(({ ctx, input }) => expireSilence(withAm(ctx), input)),
});
