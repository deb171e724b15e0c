import { procedure, router } from "../trpc/init.ts";
import { noInput } from "../schemas/common.ts";
import {
  listDestructionsInput,
  residencyInput,
  safeguardCreateInput,
  safeguardNotifyInput,
  safeguardRevokeInput,
  subjectDestroyInput,
  subjectExportInput,
  subjectFindInput,
  tenantRetentionInput,
  ownRetentionInput,
  updateSettingsInput,
  verifyRegionInput,
  holdPlaceInput,
  holdReleaseInput,
  policyUpdateInput,
  applicationOpenInput,
  applicationAnswerInput,
  applicationRefuseInput,
  applicationEraseInput,
  breachCreateInput,
  breachUpdateInput,
  breachGetInput,
  keyVersionInput,
  rekeyInput,
  specialMarkInput,
} from "../kvkk/schemas.ts";
import { activateKey, keyStatus, retireKey } from "../kvkk/keys.ts";
import { rekeyNow } from "../kvkk/rekey.ts";
import { listSpecial, markSpecial } from "../kvkk/special.ts";
import { controllerView } from "../kvkk/controller-view.ts";
import { createBreach, getBreach, listBreaches, updateBreach } from "../kvkk/breaches.ts";
import { answerApplication, eraseForApplication, listApplications, openApplication, refuseApplication } from "../kvkk/applications.ts";
import { getPolicy, updatePolicyEntry } from "../kvkk/policy.ts";
import { listHolds, placeHold, releaseHold } from "../kvkk/holds.ts";
import { getSettings, setOwnRetention, setTenantRetention, updateSettings } from "../kvkk/settings.ts";
import { listDestructions, listSubjectRequests } from "../kvkk/records.ts";
import { runDestructionNow } from "../kvkk/destruction.ts";
import { exportSubject, findSubject } from "../kvkk/subject.ts";
import { destroySubject } from "../kvkk/erasure.ts";
import { residencyMap } from "../kvkk/residency.ts";
import { transferRegister } from "../kvkk/transfer-register.ts";
import { createSafeguard, listSafeguards, markNotified, revokeSafeguard } from "../kvkk/safeguards.ts";
import { listExternalRegions, verifyRegion } from "../kvkk/regions.ts";

export const kvkkRouter = router({
  settings: procedure("kvkk:read").query(({ ctx }) => getSettings(ctx)),
  updateSettings: procedure("kvkk:write").input(updateSettingsInput).mutation(({ ctx, input }) => updateSettings(ctx, input)),
  setTenantRetention: procedure("kvkk:write").input(tenantRetentionInput).mutation(({ ctx, input }) => setTenantRetention(ctx, input)),
  destructions: procedure("kvkk:read").input(listDestructionsInput).query(({ ctx, input }) => listDestructions(ctx, input)),
  runDestruction: procedure("kvkk:write").input(noInput).mutation(({ ctx }) => runDestructionNow(ctx)),
  residency: procedure("kvkk:read").input(residencyInput).query(({ ctx, input }) => residencyMap(ctx, input)),
  transfers: procedure("kvkk:read").input(residencyInput).query(({ ctx, input }) => transferRegister(ctx, input)),
  controller: procedure("kvkk:controller").query(({ ctx }) => controllerView(ctx)),
  /** The controller's own retention, within the platform's period (the controller's page). */
  setOwnRetention: procedure("kvkk:controller").input(ownRetentionInput).mutation(({ ctx, input }) => setOwnRetention(ctx, input)),
  breaches: router({
    list: procedure("kvkk:read").query(({ ctx }) => listBreaches(ctx)),
    get: procedure("kvkk:read").input(breachGetInput).query(({ ctx, input }) => getBreach(ctx, input)),
    create: procedure("kvkk:write").input(breachCreateInput).mutation(({ ctx, input }) => createBreach(ctx, input)),
    update: procedure("kvkk:write").input(breachUpdateInput).mutation(({ ctx, input }) => updateBreach(ctx, input)),
  }),
  applications: router({
    list: procedure("application:read").query(({ ctx }) => listApplications(ctx)),
    open: procedure("application:write").input(applicationOpenInput).mutation(({ ctx, input }) => openApplication(ctx, input)),
    answer: procedure("application:write").input(applicationAnswerInput).mutation(({ ctx, input }) => answerApplication(ctx, input)),
    refuse: procedure("application:write").input(applicationRefuseInput).mutation(({ ctx, input }) => refuseApplication(ctx, input)),
    erase: procedure("application:write").input(applicationEraseInput).mutation(({ ctx, input }) => eraseForApplication(ctx, input)),
  }),
  policy: router({
    get: procedure("kvkk:read").query(({ ctx }) => getPolicy(ctx)),
    update: procedure("kvkk:write").input(policyUpdateInput).mutation(({ ctx, input }) => updatePolicyEntry(ctx, input)),
  }),
  holds: router({
    list: procedure("kvkk:read").query(({ ctx }) => listHolds(ctx)),
    place: procedure("kvkk:write").input(holdPlaceInput).mutation(({ ctx, input }) => placeHold(ctx, input)),
    release: procedure("kvkk:write").input(holdReleaseInput).mutation(({ ctx, input }) => releaseHold(ctx, input)),
  }),
  safeguards: router({
    list: procedure("kvkk:read").query(({ ctx }) => listSafeguards(ctx)),
    create: procedure("kvkk:write").input(safeguardCreateInput).mutation(({ ctx, input }) => createSafeguard(ctx, input)),
    notified: procedure("kvkk:write").input(safeguardNotifyInput).mutation(({ ctx, input }) => markNotified(ctx, input)),
    revoke: procedure("kvkk:write").input(safeguardRevokeInput).mutation(({ ctx, input }) => revokeSafeguard(ctx, input)),
  }),
  regions: router({
    list: procedure("kvkk:read").query(({ ctx }) => listExternalRegions(ctx)),
    verify: procedure("kvkk:write").input(verifyRegionInput).mutation(({ ctx, input }) => verifyRegion(ctx, input)),
  }),
  /** The call log's keys at rest: versions, rotation, re-keying, and which gateway holds what. */
  keys: router({
    status: procedure("kvkk:read").query(({ ctx }) => keyStatus(ctx)),
    activate: procedure("kvkk:write").input(keyVersionInput).mutation(({ ctx, input }) => activateKey(ctx, input)),
    rekey: procedure("kvkk:write").input(rekeyInput).mutation(({ ctx, input }) => rekeyNow(ctx, input)),
    retire: procedure("kvkk:write").input(keyVersionInput).mutation(({ ctx, input }) => retireKey(ctx, input)),
  }),
  /** Special categories of personal data (KVKK Art. 6), by tenant or endpoint. */
  special: router({
    list: procedure("kvkk:read").query(({ ctx }) => listSpecial(ctx)),
    mark: procedure("kvkk:write").input(specialMarkInput).mutation(({ ctx, input }) => markSpecial(ctx, input)),
  }),
  subject: router({
    list: procedure("kvkk:read").query(({ ctx }) => listSubjectRequests(ctx)),
    find: procedure("subject:read").input(subjectFindInput).mutation(({ ctx, input }) => findSubject(ctx, input)),
    export: procedure("subject:read").input(subjectExportInput).mutation(({ ctx, input }) => exportSubject(ctx, input)),
    destroy: procedure("kvkk:write").input(subjectDestroyInput).mutation(({ ctx, input }) => destroySubject(ctx, input)),
  }),
});
