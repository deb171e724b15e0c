import { procedure, router } from "../trpc/init.ts";
import { addModelVersionInput, createModelInput, modelIdInput, modelVersionIdInput, updateModelInput } from "../models/schemas.ts";
import { retireModel, retireModelVersion, updateModel } from "../models/lifecycle.ts";
import { addModelVersion, createModel, getModel, listModels } from "../models/models.ts";

export const modelRouter = router({
  list: procedure("model:read").query(({ ctx }) => listModels(ctx)),
  get: procedure("model:read").input(modelIdInput).query(({ ctx, input }) => getModel(ctx, input)),
  create: procedure("model:write").input(createModelInput).mutation(({ ctx, input }) => createModel(ctx, input)),
  update: procedure("model:write").input(updateModelInput).mutation(({ ctx, input }) => updateModel(ctx, input)),
  retire: procedure("model:write").input(modelIdInput).mutation(({ ctx, input }) => retireModel(ctx, input)),
  retireVersion: procedure("model:write").input(modelVersionIdInput).mutation(({ ctx, input }) => retireModelVersion(ctx, input)),
  addVersion: procedure("model:write").input(addModelVersionInput).mutation(({ ctx, input }) => addModelVersion(ctx, input)),
});
