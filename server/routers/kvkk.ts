import { procedure, router } from "../trpc/init.ts";
import { noInput } from "../schemas/common.ts";
import { listDestructionsInput, residencyInput, subjectDestroyInput, subjectExportInput, subjectFindInput, tenantRetentionInput, updateSettingsInput } from "../kvkk/schemas.ts";
import { getSettings, setTenantRetention, updateSettings } from "../kvkk/settings.ts";
import { listDestructions, listSubjectRequests } from "../kvkk/records.ts";
import { runDestructionNow } from "../kvkk/destruction.ts";
import { destroySubject, exportSubject, findSubject } from "../kvkk/subject.ts";
import { residencyMap, transferRegister } from "../kvkk/residency.ts";

export const kvkkRouter = router({
  settings: procedure("kvkk:read").query(({ ctx }) => getSettings(ctx)),
  updateSettings: procedure("kvkk:write").input(updateSettingsInput).mutation(({ ctx, input }) => updateSettings(ctx, input)),
  setTenantRetention: procedure("kvkk:write").input(tenantRetentionInput).mutation(({ ctx, input }) => setTenantRetention(ctx, input)),
  destructions: procedure("kvkk:read").input(listDestructionsInput).query(({ ctx, input }) => listDestructions(ctx, input)),
  runDestruction: procedure("kvkk:write").input(noInput).mutation(({ ctx }) => runDestructionNow(ctx)),
  residency: procedure("kvkk:read").input(residencyInput).query(({ ctx, input }) => residencyMap(ctx, input)),
  transfers: procedure("kvkk:read").input(residencyInput).query(({ ctx, input }) => transferRegister(ctx, input)),
  subject: router({
    list: procedure("kvkk:read").query(({ ctx }) => listSubjectRequests(ctx)),
    find: procedure("subject:read").input(subjectFindInput).mutation(({ ctx, input }) => findSubject(ctx, input)),
    export: procedure("subject:read").input(subjectExportInput).mutation(({ ctx, input }) => exportSubject(ctx, input)),
    destroy: procedure("kvkk:write").input(subjectDestroyInput).mutation(({ ctx, input }) => destroySubject(ctx, input)),
  }),
});
