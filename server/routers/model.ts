import { procedure, router } from "../trpc/init.ts";
import { addModelVersionInput, createModelInput, modelIdInput } from "../models/schemas.ts";
import { addModelVersion, createModel, getModel, listModels } from "../models/models.ts";

export const modelRouter = router({
  list: procedure("model:read").query(({ ctx }) => listModels(ctx)),
  get: procedure("model:read").input(modelIdInput).query(({ ctx, input }) => getModel(ctx, input)),
  create: procedure("model:write").input(createModelInput).mutation(({ ctx, input }) => createModel(ctx, input)),
  addVersion: procedure("model:write").input(addModelVersionInput).mutation(({ ctx, input }) => addModelVersion(ctx, input)),
});
